import type { Kysely } from 'kysely';
import type { StoreDialect } from '../dialect.js';

/**
 * Webhooks and their delivery queue. A webhook has no foreign key to its session on purpose: the
 * `session.deleted` event must still be delivered after the session's row is gone; the webhooks of
 * a deleted session are removed once they have nothing left to deliver (the event log pruner).
 */
export function webhooksMigration(dialect: StoreDialect) {
  const idType = dialect === 'postgres' ? 'bigint' : 'integer';
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('webhooks')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('session_id', 'text', (c) => c.notNull())
        .addColumn('url', 'text', (c) => c.notNull())
        .addColumn('events', 'text', (c) => c.notNull())
        .addColumn('secret', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('webhooks_by_session').on('webhooks').columns(['session_id', 'created_at']).execute();

      await db.schema
        .createTable('webhook_deliveries')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('webhook_id', 'text', (c) => c.notNull().references('webhooks.id').onDelete('cascade'))
        .addColumn('event_id', idType, (c) => c.notNull())
        .addColumn('event_type', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('response_status', 'integer')
        .addColumn('error', 'text')
        .addColumn('next_attempt_at', 'text')
        .addColumn('delivered_at', 'text')
        .addColumn('locked_until', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      // The dispatcher looks for due pending deliveries; the API lists a webhook's latest ones.
      await db.schema.createIndex('webhook_deliveries_due').on('webhook_deliveries').columns(['status', 'next_attempt_at']).execute();
      await db.schema.createIndex('webhook_deliveries_by_webhook').on('webhook_deliveries').columns(['webhook_id', 'event_id']).execute();
    },
  };
}
