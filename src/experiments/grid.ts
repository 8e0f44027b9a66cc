import { type FieldError } from '../errors.js';
import { errors } from '../error-factories.js';

/** An axis as a client gives it: the values listed, or `steps` evenly spaced numbers from `from` to `to`. */
export type AxisInput = readonly unknown[] | { readonly from: number; readonly to: number; readonly steps: number };

/** Where an axis value goes: an algorithm parameter, a data parameter, or the dataset itself. */
export type AxisTarget = { readonly kind: 'algo_params' | 'data_params'; readonly name: string } | { readonly kind: 'dataset_key' };

export interface Axis {
  /** As the client wrote it: `algo_params.<name>`, `data_params.<name>` or `dataset_key`. */
  readonly path: string;
  readonly target: AxisTarget;
  readonly values: readonly unknown[];
}

/** Parses an axis path; undefined for a path of any other form. */
export function axisTarget(path: string): AxisTarget | undefined {
  if (path === 'dataset_key') return { kind: 'dataset_key' };
  const match = /^(algo_params|data_params)\.(.+)$/.exec(path);
  return match ? { kind: match[1] as 'algo_params' | 'data_params', name: match[2]! } : undefined;
}

type Range = { readonly from: number; readonly to: number; readonly steps: number };
const isList = (axis: AxisInput): axis is readonly unknown[] => Array.isArray(axis);

/** How many values an axis has, without listing them. */
const lengthOf = (axis: AxisInput): number => (isList(axis) ? axis.length : axis.steps);

/**
 * The number of scenarios the axes make (combinations times repeats), computed from the axes'
 * lengths alone, so a grid of 10^9 is refused before anything of it is built.
 */
export function gridSize(axes: Readonly<Record<string, AxisInput>>, repeats: number): number {
  let size = repeats;
  for (const axis of Object.values(axes)) size *= lengthOf(axis);
  return size;
}

/** The values of a range axis: `steps` numbers from `from` to `to`, rounded when the parameter takes integers. */
function rangeValues(range: Range, integers: boolean): number[] {
  const step = (range.to - range.from) / (range.steps - 1);
  return Array.from({ length: range.steps }, (_, i) => {
    const value = i === range.steps - 1 ? range.to : range.from + i * step;
    return integers ? Math.round(value) : value;
  });
}

/**
 * The axes with their values listed, in the order given; 400 naming every malformed one (unknown
 * form of path, empty list, fewer than 2 steps). `integers(target)` says whether a range on it rounds.
 */
export function listAxes(axes: Readonly<Record<string, AxisInput>>, integers: (target: AxisTarget) => boolean): Axis[] {
  const fieldErrors: FieldError[] = [];
  const listed: Axis[] = [];
  for (const [path, axis] of Object.entries(axes)) {
    const target = axisTarget(path);
    const at = `axes.${path}`;
    if (!target) fieldErrors.push({ path: at, message: 'an axis path is algo_params.<name>, data_params.<name> or dataset_key' });
    else if (isList(axis)) {
      if (axis.length === 0) fieldErrors.push({ path: at, message: 'an axis needs at least one value' });
      else listed.push({ path, target, values: axis });
    } else if (!(Number.isInteger(axis.steps) && axis.steps >= 2)) fieldErrors.push({ path: at, message: `steps must be an integer >= 2, got ${axis.steps}` });
    else if (target.kind === 'dataset_key') fieldErrors.push({ path: at, message: 'the dataset axis takes a list of dataset keys, not a range' });
    else listed.push({ path, target, values: rangeValues(axis, integers(target)) });
  }
  if (fieldErrors.length > 0) throw errors.experimentAxesInvalid(fieldErrors);

  return listed;
}

/** The combination at `index` as one value index per axis: the last axis varies fastest. */
export function combinationAt(axes: readonly Axis[], index: number): number[] {
  const picks = new Array<number>(axes.length);
  let rest = index;
  for (let a = axes.length - 1; a >= 0; a--) {
    const length = axes[a]!.values.length;
    picks[a] = rest % length;
    rest = Math.floor(rest / length);
  }
  return picks;
}

/** How many combinations the listed axes make. */
export const combinationCount = (axes: readonly Axis[]) => axes.reduce((n, axis) => n * axis.values.length, 1);

/** Within a combination index, how far apart two neighbouring values of axis `a` are (its place value). */
export function strideOf(axes: readonly Axis[], a: number): number {
  let stride = 1;
  for (let b = a + 1; b < axes.length; b++) stride *= axes[b]!.values.length;
  return stride;
}
