import type { DomainRegistry } from '../domain/registry.js';
import type { Kysely } from 'kysely';
import type { Database } from '../store/database.js';
import { axisStats, kpiPoints, type KpiPoint } from '../store/experiment-summary-query.js';
import { strideOf, type Axis } from './grid.js';

export interface KpiStats {
  readonly mean: number;
  readonly min: number;
  readonly max: number;
  readonly count: number;
}

export interface ExperimentSummary {
  /** Per axis, per value (in the axis's order): the statistics of every KPI over its COMPLETE scenarios. */
  readonly axes: { path: string; values: { value: unknown; kpis: Record<string, KpiStats> }[] }[];
  /** Per KPI: the scenario with the best value (by the KPI's direction). */
  readonly best: Record<string, { id: string; tag: string; value: number }>;
  /** Per pair of KPIs: the scenarios no other scenario beats on both (ids, in creation order). */
  readonly fronts: { kpis: [string, string]; ids: string[] }[];
}

/** Whether a larger value of the KPI is better. */
const higherIsBetter = (betterWhen: string) => betterWhen === 'HIGHER' || betterWhen === 'AT_LEAST';

/**
 * The summary of an experiment's COMPLETE scenarios: per-axis statistics aggregated by the database,
 * best scenario and non-dominated fronts from one read of the KPI values (a sort per pair of KPIs).
 * Undefined until a scenario is COMPLETE.
 */
export async function summarize(db: Kysely<Database>, domain: DomainRegistry, sessionId: string, experimentId: string, axes: readonly Axis[]): Promise<ExperimentSummary | undefined> {
  const [points, ...perAxis] = await Promise.all([
    kpiPoints(db, sessionId, experimentId),
    ...axes.map((axis, a) => axisStats(db, sessionId, experimentId, { stride: strideOf(axes, a), length: axis.values.length })),
  ]);
  if (points.length === 0) return undefined;
  const direction = new Map(domain.kpis.map((k) => [k.name, higherIsBetter(k.betterWhen) ? -1 : 1]));
  const byKpi = new Map<string, KpiPoint[]>();
  for (const point of points) {
    const list = byKpi.get(point.kpi) ?? [];
    list.push(point);
    byKpi.set(point.kpi, list);
  }
  const kpis = [...byKpi.keys()].filter((name) => direction.has(name));
  return {
    axes: axes.map((axis, a) => ({
      path: axis.path,
      values: axis.values.map((value, i) => ({
        value,
        kpis: Object.fromEntries(perAxis[a]!.filter((s) => s.valueIndex === i).map((s) => [s.kpi, { mean: s.mean, min: s.min, max: s.max, count: s.count }])),
      })),
    })),
    best: Object.fromEntries(kpis.map((name) => [name, best(byKpi.get(name)!, direction.get(name)!)])),
    fronts: pairs(kpis).map(([x, y]) => ({ kpis: [x, y], ids: front(byKpi.get(x)!, byKpi.get(y)!, direction.get(x)!, direction.get(y)!) })),
  };
}

function best(points: readonly KpiPoint[], sign: number): { id: string; tag: string; value: number } {
  let top = points[0]!;
  for (const p of points) if (sign * p.value < sign * top.value) top = p;
  return { id: top.id, tag: top.tag, value: top.value };
}

function pairs(names: readonly string[]): [string, string][] {
  return names.flatMap((a, i) => names.slice(i + 1).map((b): [string, string] => [a, b]));
}

/**
 * The non-dominated scenarios of two KPIs (both turned into "lower is better" by `sx`, `sy`): sorted by
 * x then y, a point is dominated exactly when an earlier one has a lower y, or the same y at a lower x.
 */
function front(xs: readonly KpiPoint[], ys: readonly KpiPoint[], sx: number, sy: number): string[] {
  const yOf = new Map(ys.map((p) => [p.id, sy * p.value]));
  const order = new Map(xs.map((p, i) => [p.id, i]));
  const both = xs.filter((p) => yOf.has(p.id)).map((p) => ({ id: p.id, x: sx * p.value, y: yOf.get(p.id)! }));
  both.sort((a, b) => a.x - b.x || a.y - b.y);
  const kept: string[] = [];
  let minY = Infinity;
  let minYx = Infinity;
  for (const p of both) {
    if (p.y < minY) {
      minY = p.y;
      minYx = p.x;
      kept.push(p.id);
    } else if (p.y === minY && p.x === minYx) kept.push(p.id);
  }
  return kept.sort((a, b) => order.get(a)! - order.get(b)!);
}
