import type { Kysely } from 'kysely';

/**
 * Run state: why a run failed, as a machine-readable code beside its message (`CANCELLED`,
 * `TIME_LIMIT`, `INTERRUPTED`, `ALGORITHM_ERROR`, `KPI_ERROR`), so clients need not parse messages.
 */
export const runStateMigration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema.alterTable('scenarios').addColumn('error_code', 'text').execute();
  },
};
