import type { Kysely } from 'kysely';
import { chunks } from './chunks.js';
import type { Database } from './database.js';

/** A kept measurement: a scenario's result (by its `finished_at`) against a plan (docs/api/cycles.md). */
export interface ChurnRow {
  readonly scenarioId: string;
  readonly resultFinishedAt: string;
  readonly rowsChanged: number;
  readonly share: number;
}

/** A COMPLETE scenario's result as a measurement reads it. */
export interface ResultRow {
  readonly id: string;
  readonly algoName: string;
  readonly finishedAt: string | null;
  readonly resultJson: string | null;
}

/**
 * `result_churn` (migration 0029): each scenario's keyed result against the plan it was last measured
 * against. A row applies while its `plan_id` is the session's current plan and its `result_finished_at`
 * is the scenario's `finished_at`; the readers check both, so a stale row is never answered.
 */
export class ResultChurnRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** The rows of these scenarios measured against plan `planId` (whatever result they were measured on). */
  async measured(planId: string, scenarioIds: readonly string[]): Promise<ChurnRow[]> {
    const rows: ChurnRow[] = [];
    for (const ids of chunks(scenarioIds)) {
      rows.push(
        ...(await this.db
          .selectFrom('result_churn')
          .select(['scenario_id as scenarioId', 'result_finished_at as resultFinishedAt', 'rows_changed as rowsChanged', 'share'])
          .where('plan_id', '=', planId)
          .where('scenario_id', 'in', ids)
          .execute()),
      );
    }
    return rows.map((row) => ({ ...row, share: Number(row.share) }));
  }

  /** The results of the session's COMPLETE scenarios among `ids` (all of them when `ids` is undefined) run by one of `algoNames`. */
  async results(sessionId: string, algoNames: readonly string[], ids?: readonly string[]): Promise<ResultRow[]> {
    if (algoNames.length === 0) return [];
    const query = this.db
      .selectFrom('scenarios')
      .select(['id', 'algo_name as algoName', 'finished_at as finishedAt', 'result as resultJson'])
      .where('session_id', '=', sessionId)
      .where('status', '=', 'COMPLETE')
      .where('algo_name', 'in', algoNames);
    if (ids === undefined) return query.orderBy('seq').execute();
    const rows: ResultRow[] = [];
    for (const chunk of chunks(ids)) rows.push(...(await query.where('id', 'in', chunk).execute()));
    return rows;
  }

  /** The ids of the session's COMPLETE scenarios run by one of `algoNames` that have no row for plan `planId` on their current result. */
  async unmeasured(sessionId: string, planId: string, algoNames: readonly string[]): Promise<string[]> {
    if (algoNames.length === 0) return [];
    const rows = await this.db
      .selectFrom('scenarios as s')
      .leftJoin('result_churn as c', (join) => join.onRef('c.scenario_id', '=', 's.id').on('c.plan_id', '=', planId).onRef('c.result_finished_at', '=', 's.finished_at'))
      .select('s.id')
      .where('s.session_id', '=', sessionId)
      .where('s.status', '=', 'COMPLETE')
      .where('s.algo_name', 'in', algoNames)
      .where('c.scenario_id', 'is', null)
      .orderBy('s.seq')
      .execute();
    return rows.map((row) => row.id);
  }

  /**
   * Keeps a measurement, replacing the scenario's earlier one. A scenario deleted meanwhile has nothing
   * to keep it for: its foreign key refuses the row, which is then dropped (answers false).
   */
  async keep(sessionId: string, planId: string, row: ChurnRow): Promise<boolean> {
    const values = { scenario_id: row.scenarioId, session_id: sessionId, plan_id: planId, result_finished_at: row.resultFinishedAt, rows_changed: row.rowsChanged, share: row.share };
    const exists = await this.db.selectFrom('scenarios').select('id').where('id', '=', row.scenarioId).executeTakeFirst();
    if (!exists) return false;
    try {
      await this.db
        .insertInto('result_churn')
        .values(values)
        .onConflict((oc) => oc.column('scenario_id').doUpdateSet({ plan_id: planId, result_finished_at: row.resultFinishedAt, rows_changed: row.rowsChanged, share: row.share }))
        .execute();
      return true;
    } catch (err) {
      // Deleted between the look and the write: the foreign key says so.
      if (await this.db.selectFrom('scenarios').select('id').where('id', '=', row.scenarioId).executeTakeFirst()) throw err;
      return false;
    }
  }
}
