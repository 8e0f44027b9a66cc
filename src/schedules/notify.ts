import type { Notify } from './schedule-spec.js';

/** A KPI of a scenario a tick made, beside the published plan's. */
export interface KpiDelta {
  readonly name: string;
  readonly plan: number | null;
  readonly value: number | null;
  /** value - plan; null when either is unknown. */
  readonly delta: number | null;
  /** delta / |plan|; null when the plan's value is 0 or unknown. */
  readonly relative: number | null;
}

export interface Churn {
  readonly rows_changed: number;
  readonly share: number;
}

/** A threshold crossed: which, by how much, and the bound. */
export type Alert =
  | { readonly kind: 'kpi'; readonly scenario_id: string; readonly kpi: string; readonly delta: number; readonly relative: number | null; readonly threshold: { readonly absolute?: number; readonly relative?: number } }
  | { readonly kind: 'churn'; readonly scenario_id: string; readonly rows_changed: number; readonly share: number; readonly threshold: { readonly rows?: number; readonly share?: number } };

export interface ScenarioMeasure {
  readonly scenario_id: string;
  readonly tag: string;
  readonly kpis: Readonly<Record<string, { readonly value: number | null }>>;
  readonly churn: Churn | null;
}

/** Each KPI of the scenario against the plan's value of it. */
export function kpiDeltas(scenario: ScenarioMeasure, plan: Readonly<Record<string, { readonly value: number | null }>>): KpiDelta[] {
  return Object.entries(scenario.kpis).map(([name, { value }]) => {
    const planned = plan[name]?.value ?? null;
    const delta = value === null || planned === null ? null : value - planned;
    const relative = delta === null || planned === null || planned === 0 ? null : delta / Math.abs(planned);
    return { name, plan: planned, value, delta, relative };
  });
}

/** The thresholds of `notify` the scenario crosses: a change larger than a bound (never equal to it). */
export function crossed(notify: Notify, scenarioId: string, deltas: readonly KpiDelta[], churn: Churn | null): Alert[] {
  const alerts: Alert[] = [];
  for (const d of deltas) {
    const threshold = notify.kpis[d.name];
    if (threshold === undefined || d.delta === null) continue;
    const overAbsolute = threshold.absolute !== undefined && Math.abs(d.delta) > threshold.absolute;
    const overRelative = threshold.relative !== undefined && d.relative !== null && Math.abs(d.relative) > threshold.relative;
    if (overAbsolute || overRelative) alerts.push({ kind: 'kpi', scenario_id: scenarioId, kpi: d.name, delta: d.delta, relative: d.relative, threshold });
  }
  const bound = notify.churn;
  if (bound !== null && churn !== null) {
    const over = (bound.rows !== undefined && churn.rows_changed > bound.rows) || (bound.share !== undefined && churn.share > bound.share);
    if (over) alerts.push({ kind: 'churn', scenario_id: scenarioId, rows_changed: churn.rows_changed, share: churn.share, threshold: bound });
  }
  return alerts;
}
