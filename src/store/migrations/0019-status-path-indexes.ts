import type { Kysely } from 'kysely';

/**
 * Two indexes of `scenarios` that others already cover, dropped: every row written pays for each
 * index it is in, and a run changes its row's `status` three times (queued, processing, ended).
 *
 * - `scenarios_by_status (status, session_id)`: the reads by status alone (the PROCESSING sessions,
 *   recovery, expired leases, the queue's tail) use `scenarios_queue (status, queue_order, seq)`, and
 *   the per-session rule of a claim (`session_id = ? and status = 'PROCESSING'`) uses
 *   `scenarios_by_session_status (session_id, status, seq)`. One of the three indexes holding
 *   `status` goes.
 * - `scenarios_by_dataset (session_id, dataset_key)`: a prefix of `scenarios_by_session_dataset
 *   (session_id, dataset_key, seq)`, which serves every read it served.
 *
 * The plans are pinned by test/store/status-path-indexes.test.ts; the saving is in docs/benchmarks.md.
 */
export const statusPathIndexesMigration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema.dropIndex('scenarios_by_status').ifExists().execute();
    await db.schema.dropIndex('scenarios_by_dataset').ifExists().execute();
  },
};
