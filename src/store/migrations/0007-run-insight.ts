import type { Kysely } from 'kysely';

/**
 * Run insight (docs/api/runs.md): on each scenario the latest `ctx.report` (JSON text), the seed of
 * `ctx.random`, how many `ctx.log` lines the run wrote, and the class and stack frames of the error it
 * threw; the lines themselves (the last 1,000 of the latest run) in `scenario_log_lines`, removed with
 * their scenario (cascade). Columns are added one statement each (SQLite adds one per ALTER).
 */
export const runInsightMigration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema.alterTable('scenarios').addColumn('report', 'text').execute();
    await db.schema.alterTable('scenarios').addColumn('seed', 'integer').execute();
    await db.schema.alterTable('scenarios').addColumn('log_count', 'integer', (c) => c.notNull().defaultTo(0)).execute();
    await db.schema.alterTable('scenarios').addColumn('error_class', 'text').execute();
    await db.schema.alterTable('scenarios').addColumn('error_stack', 'text').execute();
    await db.schema
      .createTable('scenario_log_lines')
      .addColumn('scenario_seq', 'integer', (c) => c.notNull().references('scenarios.seq').onDelete('cascade'))
      .addColumn('line', 'integer', (c) => c.notNull())
      .addColumn('at', 'text', (c) => c.notNull())
      .addColumn('level', 'text', (c) => c.notNull())
      .addColumn('message', 'text', (c) => c.notNull())
      .addColumn('fields', 'text')
      .addPrimaryKeyConstraint('scenario_log_lines_pk', ['scenario_seq', 'line'])
      .execute();
  },
};
