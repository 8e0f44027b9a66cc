import type { Kysely } from 'kysely';
import type { StoreDialect } from '../dialect.js';

/** Sessions, datasets and scenarios. */
export function initialMigration(dialect: StoreDialect) {
  // The only dialect-specific piece: an auto-incrementing integer key that records creation order.
  const seqType = dialect === 'postgres' ? 'serial' : 'integer';
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('sessions')
        .addColumn('seq', seqType, (c) => (dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement()))
        .addColumn('id', 'text', (c) => c.notNull().unique())
        .addColumn('display_name', 'text', (c) => c.notNull().unique())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('datasets')
        .addColumn('seq', seqType, (c) => (dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement()))
        .addColumn('session_id', 'text', (c) => c.notNull().references('sessions.id').onDelete('cascade'))
        .addColumn('key', 'text', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('version', 'text', (c) => c.notNull())
        .addColumn('tables_json', 'text', (c) => c.notNull())
        .addUniqueConstraint('datasets_session_key', ['session_id', 'key'])
        .execute();

      await db.schema
        .createTable('scenarios')
        .addColumn('seq', seqType, (c) => (dialect === 'postgres' ? c.primaryKey() : c.primaryKey().autoIncrement()))
        .addColumn('id', 'text', (c) => c.notNull().unique())
        .addColumn('session_id', 'text', (c) => c.notNull().references('sessions.id').onDelete('cascade'))
        .addColumn('tag', 'text', (c) => c.notNull())
        .addColumn('dataset_key', 'text', (c) => c.notNull())
        .addColumn('algo_name', 'text', (c) => c.notNull())
        .addColumn('algo_params', 'text', (c) => c.notNull())
        .addColumn('data_params', 'text', (c) => c.notNull())
        .addColumn('status', 'text', (c) => c.notNull())
        .addColumn('progress', 'double precision', (c) => c.notNull().defaultTo(0))
        .addColumn('result', 'text')
        .addColumn('kpi_values', 'text')
        .addColumn('error', 'text')
        .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('queue_order', 'integer')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('queued_at', 'text')
        .addColumn('started_at', 'text')
        .addColumn('finished_at', 'text')
        .addColumn('lease_owner', 'text')
        .addColumn('lease_expires_at', 'text')
        .addUniqueConstraint('scenarios_session_tag', ['session_id', 'tag'])
        .execute();

      await db.schema.createIndex('scenarios_by_session').on('scenarios').columns(['session_id', 'seq']).execute();
      await db.schema.createIndex('scenarios_by_status').on('scenarios').columns(['status', 'session_id']).execute();
      await db.schema.createIndex('scenarios_by_dataset').on('scenarios').columns(['session_id', 'dataset_key']).execute();
    },
  };
}
