import { sql, type ExpressionBuilder, type Kysely } from 'kysely';
import { changeFor } from '../../scenarios/changes.js';
import type { Database } from '../../store/database.js';
import type { ClaimedRun } from './claimed-run.js';

export interface QueueHead {
  readonly id: string;
  readonly sessionId: string;
}

export interface ClaimExclusions {
  /** Sessions this executor is already running (or winding down) a scenario of. */
  readonly sessions: readonly string[];
  /** Scenarios being cancelled right now. */
  readonly ids: readonly string[];
}

/**
 * The oldest QUEUED scenario (by `queue_order`) of a session that has nothing PROCESSING. Being the
 * oldest among its session's queued scenarios too, it is that session's FIFO head.
 */
export async function nextQueued(db: Kysely<Database>, exclude: ClaimExclusions): Promise<QueueHead | undefined> {
  // The few sessions with a PROCESSING row, read first: cheaper than a correlated subquery per queued row.
  const processing = await db.selectFrom('scenarios').select('session_id').distinct().where('status', '=', 'PROCESSING').execute();
  const sessions = [...new Set([...exclude.sessions, ...processing.map((r) => r.session_id)])];
  let query = db
    .selectFrom('scenarios')
    .select(['id', 'session_id as sessionId'])
    .where('status', '=', 'QUEUED')
    .orderBy('queue_order')
    .orderBy('seq')
    .limit(1);
  if (sessions.length > 0) query = query.where('session_id', 'not in', sessions);
  if (exclude.ids.length > 0) query = query.where('id', 'not in', exclude.ids);
  return query.executeTakeFirst();
}

/**
 * Moves a QUEUED scenario to PROCESSING under `runToken`, unless another request or process changed
 * it first or its session already has a PROCESSING scenario (the per-session rule, held by the
 * database itself). Returns the job to run, or undefined when the claim lost.
 */
export async function claim(db: Kysely<Database>, id: string, runToken: string, now: string): Promise<ClaimedRun | undefined> {
  const change = changeFor('start');
  const row = await db
    .updateTable('scenarios')
    .set((eb) => ({
      status: change.to,
      attempts: eb('attempts', '+', 1),
      progress: 0,
      started_at: now,
      finished_at: null,
      lease_owner: runToken,
    }))
    .where('id', '=', id)
    .where('status', 'in', change.from)
    .where(noneProcessingInSession)
    .returning(['id', 'session_id', 'tag', 'dataset_key', 'algo_name', 'algo_params', 'data_params', 'attempts'])
    .executeTakeFirst();
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
