import type { Kysely } from 'kysely';

/**
 * The queue is read by status in `queue_order` (the next run to claim, the tail to queue behind);
 * without this index each of those scans every queued row, which makes long queues quadratic.
 */
export const queueIndexMigration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema.createIndex('scenarios_queue').on('scenarios').columns(['status', 'queue_order', 'seq']).execute();
  },
};
