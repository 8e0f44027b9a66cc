import type { Kysely } from 'kysely';
import type { StoreDialect } from '../dialect.js';

/**
 * Result diffs against the published plan (docs/api/cycles.md, "Result diffs, churn and warm start").
 *
 * `result_churn` keeps, per scenario, how far its keyed result is from a plan's: measured once per
 * (scenario result, plan) and read by every list. A row names what it was measured between (`plan_id`,
 * and `result_finished_at`, the scenario's `finished_at` when its result was read), so a row that no
 * longer applies (another plan published, or the scenario run again) is simply not matched and is
 * overwritten by the next measurement: nothing has to remember to delete it.
 *
 * `scenarios.warm_start_from`: the scenario id of the published plan whose result the scenario's latest
 * run of a warm-start algorithm received; null when it received none.
 */
export function resultChurnMigration(dialect: StoreDialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('result_churn')
        .addColumn('scenario_id', 'text', (c) => c.primaryKey().references('scenarios.id').onDelete('cascade'))
        .addColumn('session_id', 'text', (c) => c.notNull())
        .addColumn('plan_id', 'text', (c) => c.notNull())
        .addColumn('result_finished_at', 'text', (c) => c.notNull())
        .addColumn('rows_changed', 'integer', (c) => c.notNull())
        .addColumn('share', dialect === 'postgres' ? 'double precision' : 'real', (c) => c.notNull())
        .execute();
      await db.schema.alterTable('scenarios').addColumn('warm_start_from', 'text').execute();
    },
  };
}
