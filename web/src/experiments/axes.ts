import type { ParameterDescriptor } from '../api/types.ts';

/**
 * The experiment form's axes as typed (strings), the live scenario count, and the body the server
 * takes. The server judges every value against its descriptor; here only the shape is checked, so the
 * count can follow the typing.
 */

/** The server's default `max_experiment_size`; the API does not expose the setting, so a 413 can still come below it. */
const DEFAULT_MAX_EXPERIMENT_SIZE = 10_000;

export type AxisMode = 'list' | 'range';

/** One varied parameter as the form holds it. */
export interface AxisInput {
  /** `algo_params.<name>` or `data_params.<name>` */
  path: string;
  mode: AxisMode;
  /** Comma-separated values (list mode). */
  list: string;
  from: string;
  to: string;
  steps: string;
}

export const newAxis = (path: string, d?: Pick<ParameterDescriptor, 'type'>): AxisInput => ({
  path,
  mode: d && (d.type === 'integer' || d.type === 'float') ? 'range' : 'list',
  list: d?.type === 'boolean' ? 'true, false' : '',
  from: '',
  to: '',
  steps: '2',
});

const listItems = (text: string): string[] =>
  text
    .split(',')
    .map((v) => v.trim())
    .filter((v) => v !== '');

/** How many values an axis contributes: list items, or `steps` (0 while it is not a whole number >= 2). */
export function axisLength(axis: AxisInput): number {
  if (axis.mode === 'list') return listItems(axis.list).length;
  const steps = Number(axis.steps);
  return Number.isInteger(steps) && steps >= 2 ? steps : 0;
}

/** Product of the axes' lengths (the dataset axis counts as one axis) times repeats; an empty axis makes 0. */
export function scenarioCount(lengths: readonly number[], repeats: number): number {
  const r = Number.isInteger(repeats) && repeats >= 1 ? repeats : 0;
  return lengths.reduce((n, l) => n * l, 1) * r;
}

/** Why a count cannot be created, in words, or null when it can be tried. */
export function countProblem(count: number, limit = DEFAULT_MAX_EXPERIMENT_SIZE): string | null {
  if (count === 0) return 'Every varied parameter needs at least one value (a range at least 2 steps), and repeats at least 1.';
  if (count > limit)
    return `${count.toLocaleString('en')} scenarios is over the server's limit of ${limit.toLocaleString('en')} (setting max_experiment_size; the server refuses it with 413). Use fewer values, fewer steps or fewer repeats.`;
  return null;
}

/**
 * What a range axis lacks before it can be sent, in words for its field, or null. An empty From or To
 * would reach the server as 0 (`Number('')`) and quietly make scenarios at 0: refused here instead.
 */
export function axisProblem(axis: AxisInput): string | null {
  if (axis.mode !== 'range') return null;
  const empty = [axis.from.trim() === '' ? 'From' : null, axis.to.trim() === '' ? 'To' : null].filter((f) => f !== null);
  if (empty.length > 0) return `enter a number in ${empty.join(' and ')}`;
  if (!Number.isFinite(Number(axis.from)) || !Number.isFinite(Number(axis.to))) return 'From and To must be numbers';
  return null;
}

/** One typed value of a list, read for the parameter's kind (the server checks the range and choices). */
function valueOf(text: string, d: Pick<ParameterDescriptor, 'type'> | undefined): unknown {
  if (!d) return text;
  if (d.type === 'integer' || d.type === 'float') {
    const n = Number(text);
    return Number.isFinite(n) ? n : text;
  }
  if (d.type === 'boolean') return text === 'true' ? true : text === 'false' ? false : text;
  return text;
}

/** The `axes` value of one axis, as the create route takes it. */
export function axisBody(axis: AxisInput, d: Pick<ParameterDescriptor, 'type'> | undefined): unknown[] | { from: number; to: number; steps: number } {
  if (axis.mode === 'range') return { from: Number(axis.from), to: Number(axis.to), steps: Number(axis.steps) };
  return listItems(axis.list).map((v) => valueOf(v, d));
}
