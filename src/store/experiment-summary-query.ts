import type { Kysely } from 'kysely';
import { chunks } from './chunks.js';
import type { Database } from './database.js';

/** One KPI value of one COMPLETE scenario of an experiment: numbers and the KPI's name, no scenario text. */
export interface KpiValueRow {
  /** The scenario's creation order (its `seq`). */
  readonly seq: number;
  /** The scenario's combination index in the experiment's grid. */
  readonly combo: number;
  readonly kpi: string;
  readonly value: number;
}

/**
 * Every KPI value of the experiment's COMPLETE scenarios, by scenario creation, from the indexed KPI
 * rows (no JSON read). Only numbers and the KPI's name: the summary names few scenarios (the best, the
 * fronts), so their ids and tags are read afterwards for those alone (`scenarioNames`).
 */
export async function completeKpiValues(db: Kysely<Database>, sessionId: string, experimentId: string): Promise<KpiValueRow[]> {
  const rows = await db
    .selectFrom('scenarios as s')
    .innerJoin('scenario_kpis as k', 'k.scenario_seq', 's.seq')
    .where('s.session_id', '=', sessionId)
    .where('s.experiment_id', '=', experimentId)
    .where('s.status', '=', 'COMPLETE')
    .select(['s.seq as seq', 's.experiment_combo as combo', 'k.name as kpi', 'k.value as value'])
    .orderBy('s.seq')
    .execute();
  return rows.map((r) => ({ seq: Number(r.seq), combo: Number(r.combo ?? 0), kpi: r.kpi, value: Number(r.value) }));
}

/**
 * Beyond this many, the names are read for the whole experiment in one indexed query, and the named
 * ones kept. For 10,000 named scenarios (an experiment whose runs all sit on a front), PostgreSQL took
 * 74–99 ms in chunks of `seq IN (...)` and 22–32 ms in one query.
 */
const NAMED_BY_SEQ_LIMIT = 500;

/** The id and tag of each scenario of the experiment named by its `seq`. */
export async function scenarioNames(
  db: Kysely<Database>,
  sessionId: string,
  experimentId: string,
  seqs: readonly number[],
): Promise<Map<number, { id: string; tag: string }>> {
  const names = new Map<number, { id: string; tag: string }>();
  const inExperiment = db.selectFrom('scenarios').select(['seq', 'id', 'tag']).where('session_id', '=', sessionId).where('experiment_id', '=', experimentId);
  if (seqs.length > NAMED_BY_SEQ_LIMIT) {
    const wanted = new Set(seqs);
    for (const r of await inExperiment.execute()) if (wanted.has(Number(r.seq))) names.set(Number(r.seq), { id: r.id, tag: r.tag });
    return names;
  }
  for (const part of chunks(seqs)) {
    for (const r of await inExperiment.where('seq', 'in', part).execute()) names.set(Number(r.seq), { id: r.id, tag: r.tag });
  }
  return names;
}
