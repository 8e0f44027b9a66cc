import type { Kysely } from 'kysely';
import type { StoreDialect } from '../dialect.js';

/**
 * API tokens (authentication). A token bound to a session goes with it: cascading the delete, never
 * nulling the column, because a null session would widen the token to every session.
 */
export function apiTokensMigration(dialect: StoreDialect) {
  const seqType = dialect === 'postgres' ? 'serial' : 'integer';
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('api_tokens')
        .addColumn('seq', seqType, (c) => (dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement()))
        .addColumn('id', 'text', (c) => c.notNull().unique())
        .addColumn('name', 'text')
        .addColumn('token_hash', 'text', (c) => c.notNull().unique())
        .addColumn('scope', 'text', (c) => c.notNull())
        .addColumn('session_id', 'text', (c) => c.references('sessions.id').onDelete('cascade'))
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('last_used_at', 'text')
        .addColumn('revoked_at', 'text')
        .execute();
    },
  };
}
