import type { KpiTerms, Violation, Waterfall } from '../api/explanations.ts';
import { formatDelta, formatNumber, formatRelative } from '../format.ts';

/**
 * The sentences a planner reads beside the figures of an explanation: what the terms leave out, how a
 * KPI moved and what moved it. Plain words, no API vocabulary.
 */

const withUnit = (text: string, unit: string | undefined) => (unit ? `${text} ${unit}` : text);

/** When terms do not add up to their KPI: by how much, said, never hidden. Null when they do. */
export function residualSentence(kpi: KpiTerms, unit?: string): string | null {
  if (kpi.adds_up) return null;
  const sum = kpi.value - kpi.residual;
  return `The ${kpi.by} figures add up to ${withUnit(formatNumber(sum), unit)}, not ${withUnit(formatNumber(kpi.value), unit)}: ${withUnit(formatNumber(Math.abs(kpi.residual)), unit)} of ${kpi.kpi} is not explained by any ${kpi.by}.`;
}

/** "Travel Distance fell by 24,493.8 m (−40 %) from baseline to greedy." */
export function changeSentence(w: Waterfall, fromTag: string, toTag: string, unit?: string): string {
  const change = w.to - w.from;
  const relative = w.from === 0 ? '' : ` (${formatRelative(change / Math.abs(w.from))})`;
  if (change === 0) return `${w.kpi} is the same in ${toTag} as in ${fromTag}: ${withUnit(formatNumber(w.to), unit)}.`;
  const verb = change < 0 ? 'fell' : 'rose';
  return `${w.kpi} ${verb} by ${withUnit(formatNumber(Math.abs(change)), unit)}${relative} from ${fromTag} to ${toTag}, ${withUnit(formatNumber(w.from), unit)} to ${withUnit(formatNumber(w.to), unit)}.`;
}

/**
 * What moved it: "Most of the change is zone B (−30 m), then zone A (−5 m)." when one term carries at
 * least half the change, else "The largest changes are …". Null when no term moved.
 */
export function causeSentence(w: Waterfall, unit?: string): string | null {
  const moved = w.terms.filter((t) => t.delta !== 0).slice(0, 3);
  if (moved.length === 0) return null;
  const named = moved.map((t) => `${w.by} ${t.term} (${withUnit(formatDelta(t.delta), unit)})`);
  const list = (items: readonly string[]) => (items.length === 1 ? items[0]! : `${items.slice(0, -1).join(', ')} and ${items.at(-1)!}`);
  const change = w.to - w.from;
  if (change !== 0 && Math.abs(moved[0]!.delta) >= Math.abs(change) / 2) {
    return `Most of the change is ${named[0]!}${named.length > 1 ? `, then ${list(named.slice(1))}` : ''}.`;
  }
  return `The largest changes are ${list(named)}.`;
}

/** When a waterfall's terms leave part of the change unexplained. Null when the residual is 0. */
export function waterfallResidualSentence(w: Waterfall, unit?: string): string | null {
  if (w.residual === 0) return null;
  return `${withUnit(formatDelta(w.residual), unit)} of the change is not explained by any ${w.by}: the ${w.by} figures do not add up to ${w.kpi} exactly.`;
}

export const severityWord = (v: Violation) => (v.severity === 'hard' ? 'must be fixed' : 'costs');

export function violationCountSentence(count: number, infeasible: boolean): string {
  if (count === 0) return infeasible ? 'The algorithm found no plan that keeps every rule, and named none it breaks.' : 'This plan breaks no rule the algorithm checks.';
  return `This plan breaks ${count === 1 ? 'one rule' : `${count.toLocaleString()} rules`}${infeasible ? '' : ', none of them a hard one'}.`;
}
