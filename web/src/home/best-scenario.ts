import type { KpiInfo, Scenario } from '../api/types.ts';
import { better } from '../kpis/direction.ts';

/**
 * The best finished scenario by the domain's first KPI that any of them reports (the domain lists its
 * main KPI first), or null when none reports one.
 */
export function bestScenario(completed: readonly Scenario[], kpis: readonly KpiInfo[]): { scenario: Scenario; kpi: string } | null {
  for (const kpi of kpis) {
    const measured = completed.filter((s) => typeof s.kpis[kpi.name]?.value === 'number');
    if (measured.length === 0) continue;
    const value = (s: Scenario) => s.kpis[kpi.name]!.value as number;
    const best = measured.reduce((a, b) => (better(kpi.better_when, value(b), value(a)) ? b : a));
    return { scenario: best, kpi: kpi.name };
  }
  return null;
}
