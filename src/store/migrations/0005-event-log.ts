import type { Kysely } from 'kysely';
import type { StoreDialect } from '../dialect.js';

/**
 * The event log behind `GET /sessions/{sid}/events` and webhooks. Ids come from `event_counter`,
 * a single row updated inside each inserting transaction: on PostgreSQL its row lock makes writers
 * take ids one after another in commit order, so a reader never sees id n+1 before id n.
 */
export function eventLogMigration(dialect: StoreDialect) {
  const idType = dialect === 'postgres' ? 'bigint' : 'integer';
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('event_log')
        .addColumn('id', idType, (c) => c.primaryKey())
        .addColumn('session_id', 'text', (c) => c.notNull())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('at', 'text', (c) => c.notNull())
        .addColumn('data', 'text', (c) => c.notNull())
        .execute();
      // Resuming one session's stream reads its events after an id; pruning deletes by age.
      await db.schema.createIndex('event_log_by_session').on('event_log').columns(['session_id', 'id']).execute();
      await db.schema.createIndex('event_log_by_time').on('event_log').column('at').execute();

      await db.schema
        .createTable('event_counter')
        .addColumn('name', 'text', (c) => c.primaryKey())
        .addColumn('value', idType, (c) => c.notNull())
        .execute();
      await (db as Kysely<{ event_counter: { name: string; value: number } }>)
        .insertInto('event_counter')
        .values({ name: 'events', value: 0 })
        .execute();
    },
  };
}
