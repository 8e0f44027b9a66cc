import { sql, type Kysely } from 'kysely';
import type { StatusChange } from '../../model/run-state/changes.js';
import type { Database } from '../database.js';
import { preparedByShape } from '../prepared-query.js';
import { NO_RUN } from '../run-columns.js';
import { recordColumns, type ScenarioRecord, type ScenarioRef } from '../scenarios-repository.js';

// Compiled once per change (see prepared-query.ts): every run request makes it.
const queueQuery = preparedByShape(
  (c: StatusChange) => `${c.from.join(',')}>${c.to}`,
  (db, c, v: ScenarioRef & { now: string }) =>
    db
      .updateTable('scenarios')
      .set({
        status: c.to,
        ...NO_RUN,
        queue_order: sql<number>`(select coalesce(max(q.queue_order), 0) + 1 from scenarios q where q.status in ('QUEUED', 'PROCESSING'))`,
        queued_at: v.now,
      })
      .where('session_id', '=', v.sessionId)
      .where('id', '=', v.id)
      .where('status', 'in', c.from)
      .returning(recordColumns),
);

/**
 * Client `run` (and autorun): queues the scenario behind every queued or running one (FIFO by
 * `queue_order`) when its status is one of `c.from`. Answers the row as this change left it, or
 * undefined when another request changed it first or it does not exist. `db` may be a transaction
 * it is one write of (a branch queued with the scenario it creates).
 */
export async function queueRun(db: Kysely<Database>, ref: ScenarioRef, c: StatusChange, now: string): Promise<ScenarioRecord | undefined> {
  return (await queueQuery(db, c, { sessionId: ref.sessionId, id: ref.id, now })).rows[0];
}
