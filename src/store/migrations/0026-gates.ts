import type { Kysely } from 'kysely';
import type { StoreDialect } from '../dialect.js';

/**
 * Acceptance gates (docs/api/gates.md): one row per gate, holding its request as validated; its
 * scenarios point to it (`gate_id`) with their pair's index and side, so the verdict pairs the two
 * sides' stored KPI values by `gate_pair`. `pinned_seed` fixes the seed a run's `ctx.random` takes at
 * claim (null: a fresh seed per run, as before), which is how both sides of a pair run with one seed.
 */
export function gatesMigration(dialect: StoreDialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('gates')
        .addColumn('seq', dialect === 'postgres' ? 'serial' : 'integer', (c) => c.primaryKey())
        .addColumn('id', 'text', (c) => c.notNull().unique())
        .addColumn('session_id', 'text', (c) => c.notNull().references('sessions.id').onDelete('cascade'))
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('spec', 'text', (c) => c.notNull())
        .addColumn('size', 'integer', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addUniqueConstraint('gates_session_name', ['session_id', 'name'])
        .execute();
      await db.schema.createIndex('gates_by_session').on('gates').columns(['session_id', 'seq']).execute();
      await db.schema.alterTable('scenarios').addColumn('gate_id', 'text').execute();
      await db.schema.alterTable('scenarios').addColumn('gate_pair', 'integer').execute();
      await db.schema.alterTable('scenarios').addColumn('gate_side', 'text').execute();
      await db.schema.alterTable('scenarios').addColumn('pinned_seed', 'integer').execute();
      await db.schema.createIndex('scenarios_by_session_gate').on('scenarios').columns(['session_id', 'gate_id', 'seq']).execute();
    },
  };
}
