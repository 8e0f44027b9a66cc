import type { Kysely } from 'kysely';
import type { StoreDialect } from '../dialect.js';

/**
 * Explanations of runs (docs/api/explanations.md): per scenario its latest explanation's KPI terms and
 * infeasible flag, stamped with the `finished_at` of the run that gave it (a row whose stamp is not the
 * scenario's is an earlier run's, and is not served); its violations in chunks of a few hundred, in
 * the order they are served, so a page reads one or two rows and a run of 10,000 writes a few dozen.
 * Both go with their scenario (cascade). A chunk is compressed JSON: a blob on SQLite, bytea on PostgreSQL.
 */
export function explanationsMigration(dialect: StoreDialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('scenario_explanations')
        .addColumn('scenario_seq', 'integer', (c) => c.primaryKey().references('scenarios.seq').onDelete('cascade'))
        .addColumn('session_id', 'text', (c) => c.notNull())
        .addColumn('finished_at', 'text', (c) => c.notNull())
        .addColumn('infeasible', 'integer', (c) => c.notNull())
        .addColumn('kpis', 'text', (c) => c.notNull())
        .addColumn('violation_count', 'integer', (c) => c.notNull())
        .execute();
      await db.schema
        .createTable('scenario_violation_chunks')
        .addColumn('scenario_seq', 'integer', (c) => c.notNull().references('scenarios.seq').onDelete('cascade'))
        .addColumn('chunk', 'integer', (c) => c.notNull())
        // Compressed bytes, already small: stored as they are.
        .addColumn('body', dialect === 'postgres' ? 'bytea' : 'blob', (c) => c.notNull())
        .addPrimaryKeyConstraint('scenario_violation_chunks_pk', ['scenario_seq', 'chunk'])
        .execute();
    },
  };
}
