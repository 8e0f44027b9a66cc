import type { KpiExplanation } from '../../model/explanation/stored-explanation.js';

/** One term's move between the baseline and a scenario. */
export interface TermDelta {
  readonly term: string;
  /** The term's value in the baseline; 0 where the baseline has no such term. */
  readonly from: number;
  /** Its value in the scenario; 0 where the scenario has no such term. */
  readonly to: number;
  readonly delta: number;
}

/**
 * A KPI's waterfall from the baseline's value to a scenario's (compare's `explanations`): the terms'
 * deltas, largest move first, and what they leave unexplained, so that Σ delta + residual = to − from.
 */
export interface Waterfall {
  readonly kpi: string;
  readonly by: string;
  readonly scenario_id: string;
  readonly from: number;
  readonly to: number;
  readonly terms: TermDelta[];
  /** (to − from) − Σ delta: the two sides' residuals' difference, never spread over the terms. */
  readonly residual: number;
}

/** The waterfall of `kpi` from the baseline's explanation to a scenario's. */
export function waterfall(scenarioId: string, from: KpiExplanation, to: KpiExplanation): Waterfall {
  const fromTerms = new Map(from.terms.map((t) => [t.term, t.value]));
  const toTerms = new Map(to.terms.map((t) => [t.term, t.value]));
  const names = [...new Set([...fromTerms.keys(), ...toTerms.keys()])];
  const terms = names
    .map((term) => {
      const a = fromTerms.get(term) ?? 0;
      const b = toTerms.get(term) ?? 0;
      return { term, from: a, to: b, delta: b - a };
    })
    .sort((x, y) => Math.abs(y.delta) - Math.abs(x.delta) || (x.term < y.term ? -1 : x.term > y.term ? 1 : 0));
  let moved = 0;
  for (const t of terms) moved += t.delta;
  return { kpi: to.kpi, by: to.by, scenario_id: scenarioId, from: from.value, to: to.value, terms, residual: to.value - from.value - moved };
}

/**
 * Every waterfall of a comparison: per KPI the baseline explains (in its order), per
 * scenario other than the baseline, where both it and the baseline explain that KPI.
 */
export function waterfalls(baselineId: string, explained: ReadonlyMap<string, KpiExplanation[]>, order: readonly string[]): Waterfall[] {
  const base = new Map((explained.get(baselineId) ?? []).map((k) => [k.kpi, k]));
  const out: Waterfall[] = [];
  for (const [kpi, from] of base) {
    for (const id of order) {
      if (id === baselineId) continue;
      const to = explained.get(id)?.find((k) => k.kpi === kpi);
      if (to) out.push(waterfall(id, from, to));
    }
  }
  return out;
}
