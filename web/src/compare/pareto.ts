import type { BetterWhen, Scenario } from '../api/types.ts';
import { better } from '../kpis/direction.ts';

export interface ParetoPoint {
  id: string;
  tag: string;
  x: number;
  y: number;
  /** Not dominated by any other point: no other is at least as good on both KPIs and better on one. */
  front: boolean;
}

export interface KpiAxis {
  name: string;
  unit: string;
  better_when: BetterWhen;
}

/** The complete scenarios that report both KPIs, each marked on the front or not. */
export function paretoPoints(scenarios: readonly Scenario[], x: KpiAxis, y: KpiAxis): ParetoPoint[] {
  const points = scenarios.flatMap((s) => {
    const vx = s.kpis[x.name]?.value;
    const vy = s.kpis[y.name]?.value;
    return s.status === 'COMPLETE' && typeof vx === 'number' && typeof vy === 'number' ? [{ id: s.id, tag: s.tag, x: vx, y: vy }] : [];
  });
  const atLeastAsGood = (d: BetterWhen, a: number, b: number) => a === b || better(d, a, b);
  const dominates = (a: (typeof points)[number], b: (typeof points)[number]) =>
    atLeastAsGood(x.better_when, a.x, b.x) && atLeastAsGood(y.better_when, a.y, b.y) && (better(x.better_when, a.x, b.x) || better(y.better_when, a.y, b.y));
  return points.map((p) => ({ ...p, front: !points.some((q) => q !== p && dominates(q, p)) }));
}

/** Every KPI the complete scenarios report, with its unit and direction (first seen wins). */
export function kpiAxes(scenarios: readonly Scenario[]): KpiAxis[] {
  const axes = new Map<string, KpiAxis>();
  for (const s of scenarios) {
    if (s.status !== 'COMPLETE') continue;
    for (const k of Object.values(s.kpis)) if (!axes.has(k.name)) axes.set(k.name, { name: k.name, unit: k.unit, better_when: k.better_when });
  }
  return [...axes.values()];
}
