import type { KpiValue, Scenario } from '../api/types.ts';
import { better } from '../kpis/direction.ts';

/** Each KPI's best value among the complete scenarios, and the scenario that has it (ties: the first). */
function bestOfEachKpi(scenarios: readonly Scenario[]): Map<string, { id: string; value: number }> {
  const best = new Map<string, { id: string; value: number }>();
  for (const s of scenarios) {
    if (s.status !== 'COMPLETE') continue;
    for (const k of Object.values<KpiValue>(s.kpis)) {
      if (typeof k.value !== 'number') continue;
      const current = best.get(k.name);
      if (current === undefined || better(k.better_when, k.value, current.value)) best.set(k.name, { id: s.id, value: k.value });
    }
  }
  return best;
}

/** The best value of each KPI in the session: the scenario page marks the KPIs of a scenario that equal it. */
export function bestInSession(scenarios: readonly Scenario[]): Map<string, number> {
  return new Map([...bestOfEachKpi(scenarios)].map(([name, best]) => [name, best.value]));
}

/** For each KPI, the id of the finished scenario with the best value: the list's cards wear the badge. */
export function bestByKpi(scenarios: readonly Scenario[]): Map<string, string> {
  return new Map([...bestOfEachKpi(scenarios)].map(([name, best]) => [name, best.id]));
}
