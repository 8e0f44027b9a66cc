import type { CompareResult } from '../api/types.ts';
import { better } from '../kpis/direction.ts';

/**
 * Every KPI of a comparison on one scale: 1 for the best of the compared values, 0 for the worst (by
 * the KPI's direction), so KPIs of different units read side by side. All equal: 1. No value: null.
 */
export function normalisedScores(result: CompareResult): Map<string, Map<string, number | null>> {
  const out = new Map<string, Map<string, number | null>>();
  for (const kpi of result.kpis) {
    const values = kpi.values.map((v) => v.value).filter((v): v is number => v !== null);
    const best = values.reduce<number | undefined>((b, v) => (b === undefined || better(kpi.better_when, v, b) ? v : b), undefined);
    const worst = values.reduce<number | undefined>((w, v) => (w === undefined || better(kpi.better_when, w, v) ? v : w), undefined);
    const scores = new Map<string, number | null>();
    for (const v of kpi.values) {
      if (v.value === null || best === undefined || worst === undefined) scores.set(v.scenario_id, null);
      else scores.set(v.scenario_id, best === worst ? 1 : Math.abs(v.value - worst) / Math.abs(best - worst));
    }
    out.set(kpi.name, scores);
  }
  return out;
}
