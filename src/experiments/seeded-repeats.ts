import type { AnyAlgorithm } from '../domain/define.js';
import { ScenaristError } from '../errors.js';
import type { Axis } from './grid.js';

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
  const message = `fixes the seed of every repeat, so the ${repeats} repeats of each combination would be the same run; leave ${path} unset (each run then takes its own seed), or use repeats 1`;
  throw new ScenaristError('EXPERIMENT_REPEATS_SEEDED', `${where} ${message}`, [{ path: where, message }]);
}
