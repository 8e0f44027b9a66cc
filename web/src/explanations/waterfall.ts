import type { Waterfall } from '../api/explanations.ts';

/** One bar of a waterfall: a total standing on zero, or a step floating from `start` to `end`. */
export interface WaterfallBar {
  readonly kind: 'total' | 'term' | 'others' | 'residual';
  readonly label: string;
  readonly start: number;
  readonly end: number;
  /** The step's change (`end − start`); a total's value. */
  readonly value: number;
}

/** Terms drawn one by one; the rest are drawn as one bar, so a KPI by row stays readable. */
export const MAX_TERM_BARS = 8;

/**
 * The bars of a waterfall from the baseline's value to the scenario's: the baseline's total, each
 * term's change (largest first, as the server orders them; beyond `maxTerms` the rest summed into one
 * bar), what the terms leave unexplained when anything, and the scenario's total. Each step starts where
 * the last ended, so the last step ends at the baseline's value + every delta + the residual, which
 * is the scenario's value (the server's `Σ delta + residual = to − from`).
 */
export function waterfallBars(w: Waterfall, fromLabel: string, toLabel: string, maxTerms = MAX_TERM_BARS): WaterfallBar[] {
  const bars: WaterfallBar[] = [{ kind: 'total', label: fromLabel, start: 0, end: w.from, value: w.from }];
  let level = w.from;
  const step = (kind: WaterfallBar['kind'], label: string, delta: number) => {
    bars.push({ kind, label, start: level, end: level + delta, value: delta });
    level += delta;
  };
  const shown = w.terms.length > maxTerms ? w.terms.slice(0, maxTerms - 1) : w.terms;
  for (const t of shown) step('term', `${w.by} ${t.term}`, t.delta);
  const rest = w.terms.slice(shown.length);
  if (rest.length > 0)
    step(
      'others',
      `${rest.length} other ${w.by}s`,
      rest.reduce((sum, t) => sum + t.delta, 0),
    );
  if (w.residual !== 0) step('residual', 'not explained by any term', w.residual);
  bars.push({ kind: 'total', label: toLabel, start: 0, end: w.to, value: w.to });
  return bars;
}
