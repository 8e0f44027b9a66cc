import { sql, type Kysely } from 'kysely';
import type { StoreDialect } from '../dialect.js';
import { numberEventsFunction } from './outbox/postgres-outbox.js';

/**
 * PostgreSQL: `scenarist_number_events()` replaced by the version whose UPDATE finds the unnumbered
 * events by their partial index on both sides of its join (see `numberEventsFunction`); stores made
 * before it read the whole log at every numbering. SQLite numbers events as they are written.
 */
export function eventNumberingIndexMigration(dialect: StoreDialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      if (dialect === 'postgres') await sql.raw(numberEventsFunction('CREATE OR REPLACE')).execute(db);
    },
  };
}
