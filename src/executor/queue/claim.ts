import { sql, type ExpressionBuilder, type Kysely } from 'kysely';
import { changeFor } from '../../scenarios/changes.js';
import type { Database } from '../../store/database.js';
import { prepared } from '../../store/prepared-query.js';
import type { ClaimedRun } from './claimed-run.js';

const claimQuery = prepared((db, values: { id: string; runToken: string; now: string }) => {
  const change = changeFor('start');
  return db
    .updateTable('scenarios')
    .set((eb) => ({
      status: change.to,
      attempts: eb('attempts', '+', 1),
      progress: 0,
      started_at: values.now,
      finished_at: null,
      lease_owner: values.runToken,
    }))
    .where('id', '=', values.id)
    .where('status', 'in', change.from)
    .where(noneProcessingInSession)
    .returning(['id', 'session_id', 'tag', 'dataset_key', 'algo_name', 'algo_params', 'data_params', 'attempts']);
});

/**
 * Moves a QUEUED scenario to PROCESSING under `runToken`, unless another request or process changed
 * it first or its session already has a PROCESSING scenario (the per-session rule, held by the
 * database itself). Returns the job to run, or undefined when the claim lost.
 */
export async function claim(db: Kysely<Database>, id: string, runToken: string, now: string): Promise<ClaimedRun | undefined> {
  const row = (await claimQuery(db, { id, runToken, now })).rows[0];
  if (!row) return undefined;
  return {
    job: {
      scenarioId: row.id,
      sessionId: row.session_id,
      datasetKey: row.dataset_key,
      algoName: row.algo_name,
      algoParams: parseObject(row.algo_params),
      dataParams: parseObject(row.data_params),
    },
    tag: row.tag,
    attempt: row.attempts,
    runToken,
  };
}

function noneProcessingInSession(eb: ExpressionBuilder<Database, 'scenarios'>) {
  return eb.not(
    eb.exists(
      eb
        .selectFrom('scenarios as p')
        .select(sql<number>`1`.as('one'))
        .whereRef('p.session_id', '=', 'scenarios.session_id')
        .where('p.status', '=', 'PROCESSING'),
    ),
  );
}

function parseObject(json: string): Record<string, unknown> {
  const value: unknown = JSON.parse(json);
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}
