import { sql, type Kysely } from 'kysely';
import type { StoreDialect } from '../dialect.js';
import { postgresOutboxStatements } from './outbox/postgres-outbox.js';
import { sqliteOutboxStatements } from './outbox/sqlite-outbox.js';

/**
 * The event outbox (docs/architecture.md, "Events atomic with state"): triggers on sessions,
 * datasets and scenarios log the event of every state change in the statement that makes it, so a
 * committed state always has its event and a rolled-back one never does. Other events (progress,
 * experiment counts) are inserted into the same `event_outbox` view by the application.
 */
export function eventOutboxMigration(dialect: StoreDialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      const statements = dialect === 'postgres' ? postgresOutboxStatements() : sqliteOutboxStatements();
      for (const statement of statements) await sql.raw(statement).execute(db);
    },
  };
}
