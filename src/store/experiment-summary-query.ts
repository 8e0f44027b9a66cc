import { sql, type Kysely } from 'kysely';
import type { Database } from './database.js';

/** Which values of an experiment's combination index belong to one value of an axis: `(combo / stride) % length`. */
export interface AxisShape {
  readonly stride: number;
  readonly length: number;
}

/** Mean, min, max and count of one KPI over the COMPLETE scenarios at one value of an axis. */
export interface AxisKpiStats {
  /** The value's index on its axis. */
  readonly valueIndex: number;
  readonly kpi: string;
  readonly mean: number;
  readonly min: number;
  readonly max: number;
  readonly count: number;
}

/** One KPI value of one COMPLETE scenario. */
export interface KpiPoint {
  readonly id: string;
  readonly tag: string;
  readonly kpi: string;
  readonly value: number;
}

const complete = (db: Kysely<Database>, sessionId: string, experimentId: string) =>
  db
    .selectFrom('scenarios as s')
    .innerJoin('scenario_kpis as k', 'k.scenario_seq', 's.seq')
    .where('s.session_id', '=', sessionId)
    .where('s.experiment_id', '=', experimentId)
    .where('s.status', '=', 'COMPLETE');

/**
 * KPI statistics per value of one axis, aggregated by the database from the indexed KPI rows: the
 * axis value is computed from the scenario's combination index, so no JSON is read.
 */
export async function axisStats(db: Kysely<Database>, sessionId: string, experimentId: string, axis: AxisShape): Promise<AxisKpiStats[]> {
  // Inlined (integers of our own): PostgreSQL matches a GROUP BY expression to the selected one only
  // when both are the same text, which two bound parameters are not.
  const valueIndex = sql<number>`(s.experiment_combo / ${sql.lit(Math.trunc(axis.stride))}) % ${sql.lit(Math.trunc(axis.length))}`;
  const rows = await complete(db, sessionId, experimentId)
    .select([
      valueIndex.as('valueIndex'),
      'k.name as kpi',
      sql<number>`avg(k.value)`.as('mean'),
      sql<number>`min(k.value)`.as('min'),
      sql<number>`max(k.value)`.as('max'),
      sql<number>`count(*)`.as('count'),
    ])
    .groupBy([valueIndex, 'k.name'])
    .execute();
  return rows.map((r) => ({ valueIndex: Number(r.valueIndex), kpi: r.kpi, mean: Number(r.mean), min: Number(r.min), max: Number(r.max), count: Number(r.count) }));
}

/** Every KPI value of the experiment's COMPLETE scenarios, by scenario creation. */
export async function kpiPoints(db: Kysely<Database>, sessionId: string, experimentId: string): Promise<KpiPoint[]> {
  const rows = await complete(db, sessionId, experimentId).select(['s.id as id', 's.tag as tag', 'k.name as kpi', 'k.value as value']).orderBy('s.seq').execute();
  return rows.map((r) => ({ id: r.id, tag: r.tag, kpi: r.kpi, value: Number(r.value) }));
}
