import type { Axis } from './grid.js';

/** A scenario tag's longest (the tag rule of every scenario: 1..200 characters). */
const MAX_TAG = 200;
/** An axis value's longest in a tag: a long text or list is cut, the tag stays readable. */
const MAX_VALUE = 40;

/** The axis as a tag names it: the parameter's own name, `dataset` for the dataset axis. */
const axisName = (axis: Axis) => (axis.target.kind === 'dataset_key' ? 'dataset' : axis.target.name);

/** A value as a tag shows it: a number without binary noise (0.30000000000000004 → 0.3), a text as it is, anything else as JSON; cut past 40 characters. */
function valueText(value: unknown): string {
  const text =
    typeof value === 'number' ? String(Number(value.toPrecision(12))) : typeof value === 'string' ? value : value === undefined ? 'null' : JSON.stringify(value);
  return text.length > MAX_VALUE ? `${text.slice(0, MAX_VALUE - 1)}…` : text;
}

/**
 * The tags of an experiment's scenarios, in creation order (each combination's repeats together):
 * `<name>/<axis>=<value> · <axis>=<value>`, with ` · rep <r>` when there are repeats, so a tag says
 * what the scenario tried (`depot sweep/depot_x=6 · rep 2`), not where it stood in the grid. Tags stay
 * unique within the experiment and within 200 characters: a tag that would repeat another (values cut
 * alike, or equal once shown) or run too long ends with ` #<n>`, its place in the experiment. An
 * experiment without axes numbers its scenarios (`<name>/1`).
 */
export function sweepTags(name: string, axes: readonly Axis[], combinations: readonly Readonly<Record<string, unknown>>[], repeats: number): string[] {
  const tags: string[] = [];
  const seen = new Set<string>();
  for (const values of combinations) {
    const parts = axes.map((axis) => `${axisName(axis)}=${valueText(values[axis.path])}`);
    for (let r = 1; r <= repeats; r++) {
      const n = tags.length + 1;
      const label = [...parts, ...(repeats > 1 ? [`rep ${r}`] : [])].join(' · ');
      let tag = label === '' ? `${name}/${n}` : `${name}/${label}`;
      if (seen.has(tag) || tag.length > MAX_TAG) tag = numbered(tag, n, seen);
      seen.add(tag);
      tags.push(tag);
    }
  }
  return tags;
}

/** `tag #n`, cut to fit (with an ellipsis); n counts on past the scenario's place in the unlikely case that too is taken. */
function numbered(tag: string, n: number, seen: ReadonlySet<string>): string {
  for (let k = n; ; k++) {
    const suffix = ` #${k}`;
    const candidate = tag.length + suffix.length > MAX_TAG ? `${tag.slice(0, MAX_TAG - suffix.length - 1)}…${suffix}` : `${tag}${suffix}`;
    if (!seen.has(candidate)) return candidate;
  }
}
