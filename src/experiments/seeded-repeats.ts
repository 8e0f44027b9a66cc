import type { AnyAlgorithm } from '../domain/define.js';
import type { Axis } from './grid.js';
import { errors } from '../error-factories.js';

/**
 * Refuses repeats that could not differ: with `repeats` above 1, an algorithm's declared seed parameter
 * (`seedParameter`) given a value, shared or as an axis, makes every repeat of a combination the same
 * run with the same seed, hence the same result and an empty min-max band. Left unset, each run takes
 * its own seed, which is what repeats are for.
 */
export function checkSeededRepeats(algorithm: AnyAlgorithm, algoParams: Readonly<Record<string, unknown>>, axes: readonly Axis[], repeats: number): void {
  const seed = algorithm.seedParameter;
  if (seed === undefined || repeats <= 1) return;
  const path = `algo_params.${seed}`;
  const given = algoParams[seed] !== undefined && algoParams[seed] !== null;
  const varied = axes.some((axis) => axis.path === path);
  if (!given && !varied) return;
  const where = varied ? `axes.${path}` : path;
  throw errors.repeatsSeeded(where, path, repeats);
}
