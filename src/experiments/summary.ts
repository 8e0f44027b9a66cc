import type { Kysely } from 'kysely';
import type { DomainRegistry } from '../domain/registry.js';
import type { Database } from '../store/database.js';
import { completeKpiValues, scenarioNames, type KpiValueRow } from '../store/experiment-summary-query.js';
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

/** The summary with scenarios named by creation order (`seq`), before their ids and tags are read. */
export interface SummaryBySeq {
  readonly axes: ExperimentSummary['axes'];
  readonly best: Record<string, { seq: number; value: number }>;
  readonly fronts: { kpis: [string, string]; seqs: number[] }[];
}

/** Whether a larger value of the KPI is better. */
const higherIsBetter = (betterWhen: string) => betterWhen === 'HIGHER' || betterWhen === 'AT_LEAST';

/**
 * The summary of an experiment's COMPLETE scenarios from one read of their KPI values (numbers only),
 * then one read of the ids and tags of the few scenarios it names. Undefined until a scenario is COMPLETE.
 */
export async function summarize(db: Kysely<Database>, domain: DomainRegistry, sessionId: string, experimentId: string, axes: readonly Axis[]): Promise<ExperimentSummary | undefined> {
  const rows = await completeKpiValues(db, sessionId, experimentId);
  if (rows.length === 0) return undefined;
  // -1: higher is better; the front and the best compare values turned into "lower is better".
  const direction = new Map(domain.kpis.map((k) => [k.name, higherIsBetter(k.betterWhen) ? -1 : 1]));
  const bySeq = summariseValues(rows, axes, direction);
  const named = new Set<number>([...Object.values(bySeq.best).map((b) => b.seq), ...bySeq.fronts.flatMap((f) => f.seqs)]);
  const names = await scenarioNames(db, sessionId, experimentId, [...named]);
  // A scenario deleted between the two reads is left out of what names it.
  const idOf = (seq: number) => names.get(seq)?.id;
  return {
    axes: bySeq.axes,
    best: Object.fromEntries(
      Object.entries(bySeq.best).flatMap(([kpi, { seq, value }]) => {
        const name = names.get(seq);
        return name ? [[kpi, { id: name.id, tag: name.tag, value }]] : [];
      }),
    ),
    fronts: bySeq.fronts.map((f) => ({ kpis: f.kpis, ids: f.seqs.map(idOf).filter((id): id is string => id !== undefined) })),
  };
}

/** One KPI's values over the scenarios, in creation order. */
interface KpiColumn {
  readonly seqs: number[];
  readonly values: number[];
}

/**
 * The summary's figures from the KPI values of COMPLETE scenarios (in creation order): per axis value,
 * the mean, min, max and count of each KPI (the value found from the scenario's combination index);
 * the best scenario per KPI with a direction (the first created, on a tie); the non-dominated scenarios
 * of each pair of KPIs with a direction.
 */
export function summariseValues(rows: readonly KpiValueRow[], axes: readonly Axis[], direction: ReadonlyMap<string, number>): SummaryBySeq {
  const columns = new Map<string, KpiColumn>();
  const shapes = axes.map((axis, a) => ({ stride: strideOf(axes, a), length: axis.values.length }));
  // Per axis, per value index, per KPI: running sum, min, max, count.
  const stats = axes.map((axis) => axis.values.map(() => new Map<string, { sum: number; min: number; max: number; count: number }>()));
  for (const row of rows) {
    let column = columns.get(row.kpi);
    if (!column) columns.set(row.kpi, (column = { seqs: [], values: [] }));
    column.seqs.push(row.seq);
    column.values.push(row.value);
    for (let a = 0; a < shapes.length; a++) {
      const { stride, length } = shapes[a]!;
      const at = stats[a]![Math.floor(row.combo / stride) % length]!;
      const s = at.get(row.kpi);
      if (s) {
        s.sum += row.value;
        s.count++;
        if (row.value < s.min) s.min = row.value;
        if (row.value > s.max) s.max = row.value;
      } else at.set(row.kpi, { sum: row.value, min: row.value, max: row.value, count: 1 });
    }
  }
  const ranked = [...columns.keys()].filter((name) => direction.has(name));
  return {
    axes: axes.map((axis, a) => ({
      path: axis.path,
      values: axis.values.map((value, i) => ({
        value,
        kpis: Object.fromEntries([...stats[a]![i]!].map(([kpi, s]) => [kpi, { mean: s.sum / s.count, min: s.min, max: s.max, count: s.count }])),
      })),
    })),
    best: Object.fromEntries(ranked.map((name) => [name, best(columns.get(name)!, direction.get(name)!)])),
    fronts: pairs(ranked).map(([x, y]) => ({ kpis: [x, y], seqs: front(columns.get(x)!, columns.get(y)!, direction.get(x)!, direction.get(y)!) })),
  };
}

function best({ seqs, values }: KpiColumn, sign: number): { seq: number; value: number } {
  let top = 0;
  for (let i = 1; i < values.length; i++) if (sign * values[i]! < sign * values[top]!) top = i;
  return { seq: seqs[top]!, value: values[top]! };
}

function pairs(names: readonly string[]): [string, string][] {
  return names.flatMap((a, i) => names.slice(i + 1).map((b): [string, string] => [a, b]));
}

/**
 * The non-dominated scenarios of two KPIs (both turned into "lower is better" by `sx`, `sy`): sorted by
 * x then y, a point is dominated exactly when an earlier one has a lower y, or the same y at a lower x.
 * Returns their seqs in creation order.
 */
function front(xs: KpiColumn, ys: KpiColumn, sx: number, sy: number): number[] {
  const yOf = new Map<number, number>();
  for (let i = 0; i < ys.seqs.length; i++) yOf.set(ys.seqs[i]!, sy * ys.values[i]!);
  const both: { seq: number; x: number; y: number }[] = [];
  for (let i = 0; i < xs.seqs.length; i++) {
    const y = yOf.get(xs.seqs[i]!);
    if (y !== undefined) both.push({ seq: xs.seqs[i]!, x: sx * xs.values[i]!, y });
  }
  both.sort((a, b) => a.x - b.x || a.y - b.y);
  const kept: number[] = [];
  let minY = Infinity;
  let minYx = Infinity;
  for (const p of both) {
    if (p.y < minY) {
      minY = p.y;
      minYx = p.x;
      kept.push(p.seq);
    } else if (p.y === minY && p.x === minYx) kept.push(p.seq);
  }
  return kept.sort((a, b) => a - b);
}
