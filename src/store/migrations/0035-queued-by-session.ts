import type { Kysely } from 'kysely';
import { sql } from 'kysely';

/**
 * `scenarios_queued_by_session (status, session_id, queue_order, seq) WHERE status = 'QUEUED'`: a
 * session's queue in start order. A wide claim (`max_running_per_session` above 1) reads a session's head and
 * the sessions that wait, at every run's end; with only `scenarios_by_session_status` a head was
 * found by sorting the session's whole queue, and the waiting sessions by grouping every QUEUED row:
 * each claim of a 1,000-run sweep sorted and grouped a thousand rows (1.3 ms of the database's time).
 * Partial, so a row is in it only while queued. Queries name the status as a literal, which is how
 * both databases tell that a partial index applies (a bound parameter hides it from the planner);
 * the status leads its columns all the same, so that the planners, weighing the equality on it, rank
 * it above `scenarios_queue` (status first too) and the other indexes that lead with the session.
 */
export const queuedBySessionMigration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .createIndex('scenarios_queued_by_session')
      .on('scenarios')
      .columns(['status', 'session_id', 'queue_order', 'seq'])
      .where(sql.ref('status'), '=', sql.lit('QUEUED'))
      .execute();
  },
};
