import type { DomainRegistry } from '../domain/registry.js';
import { type FieldError } from '../errors.js';
import { ParameterError } from '../params/errors.js';
import type { ParamDecls } from '../params/kinds.js';
import { validateParams } from '../params/validate.js';
import { combinationAt, combinationCount, gridSize, listAxes, type Axis, type AxisInput, type AxisTarget } from './grid.js';
import { checkSeededRepeats } from './seeded-repeats.js';
import { errors } from '../error-factories.js';

export interface ExperimentRequest {
  readonly name: string;
  readonly algoName: string;
  /** The dataset of every scenario, unless `dataset_key` is an axis. */
  readonly datasetKey?: string | undefined;
  /** Values every combination shares; an axis overrides its own parameter. */
  readonly algoParams?: unknown;
  readonly dataParams?: unknown;
  readonly axes: Readonly<Record<string, AxisInput>>;
  /** Scenarios per combination (each run gets its own seed; a declared seed parameter must then stay unset). */
  readonly repeats: number;
}

/** One combination of axis values, validated and serialized as its scenarios store it. */
export interface PlannedCombination {
  readonly datasetKey: string;
  readonly algoParamsJson: string;
  readonly dataParamsJson: string;
  /** JSON object of axis path to value. */
  readonly axisValuesJson: string;
}

export interface ExperimentPlan {
  readonly axes: readonly Axis[];
  readonly combinations: readonly PlannedCombination[];
  readonly repeats: number;
  /** Scenarios to create: combinations times repeats. */
  readonly size: number;
  /** Every dataset key a combination uses. */
  readonly datasetKeys: readonly string[];
}

const asObject = (value: unknown): Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};

/** Calls `check`, turning a ParameterError into an entry of `fieldErrors` at `path`. */
function collect(fieldErrors: FieldError[], path: string, check: () => void): void {
  try {
    check();
  } catch (err) {
    if (!(err instanceof ParameterError)) throw err;
    fieldErrors.push({ path, message: err.message });
  }
}

/**
 * Checks an experiment request against the domain's parameter declarations and lays out its grid,
 * before anything is stored: 413 over `maxSize` (counted from the axes' lengths alone), 404 for an
 * unknown algorithm, 400 when repeats could not differ (`checkSeededRepeats`), 400 listing every invalid
 * axis value and every invalid combination.
 */
export function planExperiment(domain: DomainRegistry, request: ExperimentRequest, maxSize: number): ExperimentPlan {
  const size = gridSize(request.axes, request.repeats);
  if (size > maxSize) {
    throw errors.experimentTooLarge(size, maxSize);
  }
  const algorithm = domain.algorithm(request.algoName);
  if (!algorithm) throw errors.algorithmNotFound(request.algoName);
  const decls: Record<'algo_params' | 'data_params', ParamDecls> = { algo_params: domain.parametersOf(algorithm), data_params: domain.dataParameters };
  const base = { algo_params: asObject(request.algoParams), data_params: asObject(request.dataParams) };
  const axes = listAxes(request.axes, (t) => t.kind !== 'dataset_key' && decls[t.kind][t.name]?.kind === 'integer');
  checkSeededRepeats(algorithm, base.algo_params, axes, request.repeats);
  const datasetAxis = axes.find((axis) => axis.target.kind === 'dataset_key');
  if (!datasetAxis && request.datasetKey === undefined) {
    throw errors.experimentDatasetKeyMissing();
  }

  const fieldErrors: FieldError[] = [];
  for (const axis of axes) checkAxis(axis, decls, base, fieldErrors);
  if (fieldErrors.length > 0) throw errors.experimentParametersInvalid(fieldErrors);

  const combinations: PlannedCombination[] = [];
  const count = combinationCount(axes);
  for (let index = 0; index < count; index++) {
    const picks = combinationAt(axes, index);
    const params = { algo_params: { ...base.algo_params }, data_params: { ...base.data_params } };
    let datasetKey = request.datasetKey ?? '';
    const axisValues: Record<string, unknown> = {};
    axes.forEach((axis, a) => {
      const value = axis.values[picks[a]!];
      axisValues[axis.path] = value;
      if (axis.target.kind === 'dataset_key') datasetKey = String(value);
      else params[axis.target.kind][axis.target.name] = value;
    });
    collect(fieldErrors, `combinations[${index}]`, () => {
      combinations.push({
        datasetKey,
        algoParamsJson: JSON.stringify(validateParams(decls.algo_params, params.algo_params)),
        dataParamsJson: JSON.stringify(validateParams(decls.data_params, params.data_params)),
        axisValuesJson: JSON.stringify(axisValues),
      });
    });
  }
  if (fieldErrors.length > 0) throw errors.experimentParametersInvalid(fieldErrors);
  const datasetKeys = datasetAxis ? [...new Set(datasetAxis.values.map(String))] : [request.datasetKey!];
  return { axes, combinations, repeats: request.repeats, size: combinations.length * request.repeats, datasetKeys };
}

/** Each value of one axis, with the shared values, against its declaration; the path itself must name a parameter. */
function checkAxis(
  axis: Axis,
  decls: Record<'algo_params' | 'data_params', ParamDecls>,
  base: Record<'algo_params' | 'data_params', Record<string, unknown>>,
  fieldErrors: FieldError[],
): void {
  const target: AxisTarget = axis.target;
  if (target.kind === 'dataset_key') {
    axis.values.forEach((value, i) => {
      if (typeof value !== 'string' || value === '') fieldErrors.push({ path: `axes.${axis.path}[${i}]`, message: 'a dataset key is a non-empty string' });
    });
    return;
  }
  const own = decls[target.kind];
  if (!Object.hasOwn(own, target.name)) {
    const known = Object.keys(own);
    fieldErrors.push({ path: `axes.${axis.path}`, message: `unknown parameter '${target.name}' (known: ${known.length === 0 ? 'none' : known.join(', ')})` });
    return;
  }
  axis.values.forEach((value, i) => {
    collect(fieldErrors, `axes.${axis.path}[${i}]`, () => validateParams({ [target.name]: own[target.name]! }, { [target.name]: value ?? base[target.kind][target.name] }));
  });
}
