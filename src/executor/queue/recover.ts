import type { Kysely } from 'kysely';
import { changeFor } from '../../scenarios/changes.js';
import type { Database } from '../../store/database.js';
import type { RunRef } from '../events.js';

/** A run interrupted once is queued again; one interrupted on its second attempt fails with this. */
export const INTERRUPTED_TWICE = 'the run was interrupted twice (the server stopped while it was processing); reset and run it again';

export interface Recovered {
  readonly requeued: RunRef[];
  readonly failed: RunRef[];
}

/**
 * Restart recovery (decisions.md "Life cycle"): a scenario found PROCESSING when the executor starts
 * was interrupted by the death of the process running it. It keeps its `queue_order`, so it runs
 * before anything queued after it. Queued scenarios need nothing: the queue is these rows.
 */
export async function recoverInterrupted(db: Kysely<Database>, now: string): Promise<Recovered> {
  return db.transaction().execute(async (trx) => {
    const rows = await trx
      .selectFrom('scenarios')
      .select(['id as scenarioId', 'session_id as sessionId', 'attempts'])
      .where('status', '=', 'PROCESSING')
      .execute();
    const again = rows.filter((r) => r.attempts < 2).map(({ scenarioId, sessionId }) => ({ scenarioId, sessionId }));
    const failed = rows.filter((r) => r.attempts >= 2).map(({ scenarioId, sessionId }) => ({ scenarioId, sessionId }));
    const requeue = changeFor('requeue');
    const fail = changeFor('fail');
    if (again.length > 0) {
      await trx
        .updateTable('scenarios')
        .set({ status: requeue.to, progress: 0, started_at: null, lease_owner: null })
        .where('id', 'in', again.map((r) => r.scenarioId))
        .where('status', 'in', requeue.from)
        .execute();
    }
    if (failed.length > 0) {
      await trx
        .updateTable('scenarios')
        .set({ status: fail.to, error: INTERRUPTED_TWICE, result: null, kpi_values: null, finished_at: now, queue_order: null, lease_owner: null })
        .where('id', 'in', failed.map((r) => r.scenarioId))
        .where('status', 'in', fail.from)
        .execute();
    }
    return { requeued: again, failed };
  });
}
