import type { Kysely } from 'kysely';
import type { StoreDialect } from '../dialect.js';

/**
 * Experiments (docs/api/experiments.md): one row per parameter sweep, holding its axes as given; its
 * scenarios point to it (`experiment_id`) with their combination's index and axis values, so a
 * summary groups KPI values by axis value in SQL. The experiment's scenarios are found by the index
 * on (session, experiment, seq), which also serves the list route's `experiment` filter.
 * `completed_at` is set once by whichever process first sees the last run end (one
 * `experiment.completed` event), and cleared when a run is queued again.
 */
export function experimentsMigration(dialect: StoreDialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('experiments')
        .addColumn('seq', dialect === 'postgres' ? 'serial' : 'integer', (c) => c.primaryKey())
        .addColumn('id', 'text', (c) => c.notNull().unique())
        .addColumn('session_id', 'text', (c) => c.notNull().references('sessions.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('algo_name', 'text', (c) => c.notNull())
        .addColumn('spec', 'text', (c) => c.notNull())
        .addColumn('size', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('completed_at', 'text')
        .addUniqueConstraint('experiments_session_name', ['session_id', 'name'])
        .execute();
      await db.schema.alterTable('scenarios').addColumn('experiment_id', 'text').execute();
      await db.schema.alterTable('scenarios').addColumn('experiment_combo', 'integer').execute();
      await db.schema.alterTable('scenarios').addColumn('axis_values', 'text').execute();
      await db.schema.createIndex('scenarios_by_session_experiment').on('scenarios').columns(['session_id', 'experiment_id', 'seq']).execute();
    },
  };
}
