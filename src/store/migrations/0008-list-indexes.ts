import { sql, type Kysely } from 'kysely';
import type { StoreDialect } from '../dialect.js';

/**
 * What the list queries need to answer a page quickly in a session of 100,000 scenarios:
 * - `scenario_kpis`: one row per KPI value of a scenario (the JSON column cannot be indexed without
 *   knowing the domain's KPI names), so sorting by a KPI walks an index. A row counts only while its
 *   scenario is COMPLETE, so resets, failures and re-queues need not touch it; a new completion
 *   replaces it, and deleting the scenario removes it (cascade).
 * - indexes that serve a filter (status, algorithm, dataset) in creation order, and datasets in
 *   creation order per session.
 * Existing COMPLETE scenarios get their rows from the stored JSON.
 */
export function listIndexesMigration(dialect: StoreDialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('scenario_kpis')
        .addColumn('scenario_seq', 'integer', (c) => c.notNull().references('scenarios.seq').onDelete('cascade'))
        .addColumn('session_id', 'text', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        .addColumn('value', 'double precision', (c) => c.notNull())
        .addPrimaryKeyConstraint('scenario_kpis_pk', ['scenario_seq', 'name'])
        .execute();
      await db.schema.createIndex('scenario_kpis_sort').on('scenario_kpis').columns(['session_id', 'name', 'value', 'scenario_seq']).execute();

      await db.schema.createIndex('scenarios_by_session_status').on('scenarios').columns(['session_id', 'status', 'seq']).execute();
      await db.schema.createIndex('scenarios_by_session_algo').on('scenarios').columns(['session_id', 'algo_name', 'seq']).execute();
      await db.schema.createIndex('scenarios_by_session_dataset').on('scenarios').columns(['session_id', 'dataset_key', 'seq']).execute();
      await db.schema.createIndex('datasets_by_session').on('datasets').columns(['session_id', 'seq']).execute();

      const backfill =
        dialect === 'postgres'
          ? sql`insert into scenario_kpis (scenario_seq, session_id, name, value)
                select s.seq, s.session_id, j.key, (j.value)::double precision
                from scenarios s, jsonb_each_text(s.kpi_values::jsonb) j
                where s.status = 'COMPLETE' and s.kpi_values is not null`
          : sql`insert into scenario_kpis (scenario_seq, session_id, name, value)
                select s.seq, s.session_id, j.key, j.value
                from scenarios s, json_each(s.kpi_values) j
                where s.status = 'COMPLETE' and s.kpi_values is not null and j.type in ('integer', 'real')`;
      await backfill.execute(db);
    },
  };
}
