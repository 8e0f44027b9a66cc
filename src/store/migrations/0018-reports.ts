import type { Kysely } from 'kysely';
import type { StoreDialect } from '../dialect.js';

/**
 * Reports (docs/api/plans-and-reports.md): a comparison frozen as it was rendered. The whole report is
 * one JSON document (`body`), written once and never updated, so it needs nothing of the scenarios it
 * describes: they may be reset or deleted afterwards. It goes with its session.
 */
export function reportsMigration(dialect: StoreDialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('reports')
        .addColumn('seq', dialect === 'postgres' ? 'serial' : 'integer', (c) => c.primaryKey())
        .addColumn('id', 'text', (c) => c.notNull().unique())
        .addColumn('session_id', 'text', (c) => c.notNull().references('sessions.id').onDelete('cascade'))
        .addColumn('title', 'text', (c) => c.notNull())
        .addColumn('note', 'text')
        .addColumn('scenario_ids', 'text', (c) => c.notNull())
        .addColumn('created_by_id', 'text', (c) => c.notNull())
        .addColumn('created_by_name', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('body', 'text', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('reports_by_session').on('reports').columns(['session_id', 'seq']).execute();
    },
  };
}
