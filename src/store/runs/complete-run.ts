import { sql, type Kysely, type QueryCreator, type RawBuilder, type UpdateQueryBuilder } from 'kysely';
import type { StoredExplanation } from '../../model/explanation/stored-explanation.js';
import { changeFor } from '../../model/run-state/changes.js';
import type { Database } from '../database.js';
import type { DialectAdapter } from '../dialect.js';
import { prepared, preparedByShape, rawStatement } from '../prepared-query.js';
import { ENDED } from '../run-columns.js';
import { kpiUpsert, kpiValues, storeKpiValues } from '../scenario-kpis.js';
import type { RunKey } from './run-row.js';
import { explanationRow, writeExplanation, writeViolationChunks, type ScenarioKeys } from './write-explanation.js';

/** What a completed run stores: its result and KPI values, and its explanation when it gave one. */
export interface CompletedRun {
  readonly resultJson: string;
  readonly kpis: Readonly<Record<string, number>>;
  readonly explanation?: StoredExplanation;
}

type CompleteValues = RunKey & { resultJson: string; kpisJson: string; now: string };

/** The completion's UPDATE, started by `update` (a plain one, or one with the KPI rows' WITH). */
function completeRow<O>(update: UpdateQueryBuilder<Database, 'scenarios', 'scenarios', O>, v: CompleteValues) {
  const complete = changeFor('complete');
  return update.where('id', '=', v.id).where('lease_owner', '=', v.runToken).where('status', 'in', complete.from).returning(['seq', 'session_id']).set({
    status: complete.to,
    ...ENDED,
    progress: 1,
    result: v.resultJson,
    kpi_values: v.kpisJson,
    error: null,
    error_code: null,
    finished_at: v.now,
  });
}

/** The values every completion statement binds. */
const completeValues = (key: RunKey, outcome: CompletedRun, now: string): CompleteValues => ({
  ...key,
  resultJson: outcome.resultJson,
  kpisJson: JSON.stringify(outcome.kpis),
  now,
});

const completeQuery = prepared((db, v: CompleteValues) => completeRow(db.updateTable('scenarios'), v));

/** What a completion with an explanation binds (see `explainedValues`). */
export type ExplainedValues = CompleteValues & Record<string, string | number> & { infeasible: number; explanationKpis: string; violationCount: number };

/** The ended row a statement's `done` CTE answers: what the explanation's row is stored under. */
type WithDone = Database & { done: ScenarioKeys };

/**
 * The explanation's row inserted from the completion's RETURNING (the CTE `done`), so nothing of it is
 * written when the completion did not apply.
 */
function explanationFromDone(qc: QueryCreator<WithDone>, v: ExplainedValues) {
  return qc
    .insertInto('scenario_explanations')
    .columns(['scenario_seq', 'session_id', 'finished_at', 'infeasible', 'kpis', 'violation_count'])
    .expression((eb) =>
      eb
        .selectFrom('done')
        .select([
          'done.seq',
          'done.session_id',
          sql<string>`cast(${v.now} as text)`.as('finished_at'),
          sql<number>`cast(${v.infeasible} as integer)`.as('infeasible'),
          sql<string>`cast(${v.explanationKpis} as text)`.as('kpis'),
          sql<number>`cast(${v.violationCount} as integer)`.as('violation_count'),
        ]),
    )
    .onConflict((oc) =>
      oc.column('scenario_seq').doUpdateSet((eb) => ({
        finished_at: eb.ref('excluded.finished_at'),
        infeasible: eb.ref('excluded.infeasible'),
        kpis: eb.ref('excluded.kpis'),
        violation_count: eb.ref('excluded.violation_count'),
      })),
    );
}

/**
 * PostgreSQL: the completion's writes as one statement (a data-modifying WITH, see `completionCtes`),
 * so one round trip and one commit, hence one WAL flush, record a run; answers the completed row's
 * keys. The KPI insert and the UPDATE see the same snapshot; rows of a scenario the completion did
 * not apply to are ignored (see `completeRun`), and the explanation's row is written only from it.
 */
const completeCombinedQuery = preparedByShape(
  (s: { kpis: number; explained: boolean }) => `${s.kpis}:${s.explained}`,
  (db, s, v: ExplainedValues) => rawStatement(db, sql<ScenarioKeys>`with ${completionCtes(db, s.kpis, s.explained, v)} select seq, session_id from done`),
);

/**
 * The completion's part of a statement that goes on after it (PostgreSQL's end-and-claim-next): its
 * KPI rows (`count` of them), the completion as the CTE `done` (answering the row's keys) and, when
 * `explained`, its explanation's row; the statement binds `explainedValues`.
 */
export function completionCtes(db: Kysely<Database>, count: number, explained: boolean, v: ExplainedValues): RawBuilder<unknown> {
  const ctes = [
    ...(count > 0 ? [sql`kpis as (${kpiUpsert(db, count, v)})`] : []),
    sql`done as (${completeRow(db.updateTable('scenarios'), v)})`,
    ...(explained ? [sql`explained as (${explanationFromDone(db as unknown as QueryCreator<WithDone>, v)})`] : []),
  ];
  return sql.join(ctes);
}

/**
 * The values of a completion (`completeRow`), its KPI rows (`kpiUpsert`) and, with an explanation, its
 * explanation's row (`explanationFromDone`), as one statement binds them.
 */
export function explainedValues(key: RunKey, outcome: CompletedRun, now: string): ExplainedValues {
  const values = { ...kpiValues(key.id, outcome.kpis), ...completeValues(key, outcome, now) };
  if (outcome.explanation === undefined) return { ...values, infeasible: 0, explanationKpis: '', violationCount: 0 };
  const row = explanationRow(now, outcome.explanation);
  return { ...values, infeasible: row.infeasible, explanationKpis: row.kpis, violationCount: row.violation_count };
}

/**
 * A run's end COMPLETE with its result, KPI values and explanation; false when the row was no longer
 * this run's. With an explanation, the completion and the explanation's rows are one statement on
 * PostgreSQL, else one transaction (the one `db` already is, as `endThenClaimNext` passes, or one
 * begun here; on PostgreSQL only when there are violations' chunks to add): one commit, and nothing of
 * the explanation written when the completion did not apply. Without one, the completion is as cheap
 * as ever.
 */
export async function completeRun(db: Kysely<Database>, dialect: DialectAdapter, key: RunKey, outcome: CompletedRun, now: string): Promise<boolean> {
  const { explanation } = outcome;
  if (explanation === undefined) return (await writeCompletion(db, dialect, key, outcome, now)) !== undefined;
  // One statement where the dialect allows (see `completeCombinedQuery`); a transaction only for violations' chunks.
  const chunked = explanation.violationChunks.length > 0;
  if (dialect.combinesWrites && (!chunked || db.isTransaction)) {
    const completed = (await completeCombinedQuery(db, { kpis: Object.keys(outcome.kpis).length, explained: true }, explainedValues(key, outcome, now))).rows[0];
    if (completed === undefined) return false;
    await writeViolationChunks(db, completed.seq, explanation);
    return true;
  }
  if (!db.isTransaction) return db.transaction().execute((trx) => completeRun(trx, dialect, key, outcome, now));
  const completed = await writeCompletion(db, dialect, key, outcome, now);
  if (completed === undefined) return false;
  // Stamped with the completion's `finished_at`: a later run's completion leaves it unserved.
  await writeExplanation(db, completed, now, explanation);
  return true;
}

/**
 * The completion with its KPI rows, in as few statements as the dialect allows; answers the completed
 * row's keys (what the explanation's rows are stored under), or undefined when the row was no longer
 * this run's.
 */
async function writeCompletion(db: Kysely<Database>, dialect: DialectAdapter, key: RunKey, outcome: CompletedRun, now: string): Promise<ScenarioKeys | undefined> {
  // The sortable copy of the KPI values first (or with it): should the completion not apply
  // (cancelled), rows of a scenario that is not COMPLETE are ignored by the list queries.
  const count = Object.keys(outcome.kpis).length;
  if (dialect.combinesWrites && count > 0) return (await completeCombinedQuery(db, { kpis: count, explained: false }, explainedValues(key, outcome, now))).rows[0];
  await storeKpiValues(db, key.id, outcome.kpis);
  return (await completeQuery(db, completeValues(key, outcome, now))).rows[0];
}
