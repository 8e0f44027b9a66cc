import { sql, type Kysely } from 'kysely';
import type { StoreDialect } from '../dialect.js';
import { runJobSpec } from './0020-run-jobs.js';

/**
 * PostgreSQL: the jobs of scenarios inserted QUEUED (an experiment created with `run: true`, a gate's
 * pair) are added once per statement, by a statement trigger that reads the inserted rows, rather
 * than by a row trigger calling graphile-worker's `add_jobs` once per row. Each call is a function
 * call with its queue lookup and its `NOTIFY`: about 0.23 ms a row, a quarter of a second for an
 * experiment of 1,000 runs, spent before its first run could start. The jobs are the same (see
 * migration 0020), added in queue order; a run queued by an update keeps its row trigger (PostgreSQL
 * allows no transition table on a trigger of a column list, and a statement trigger on every update
 * of `scenarios` would tax each progress write).
 */
export function insertedRunJobsMigration(dialect: StoreDialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      if (dialect !== 'postgres') return;
      for (const statement of STATEMENTS) await sql.raw(statement).execute(db);
    },
  };
}

const STATEMENTS = [
  `DROP TRIGGER scenario_run_job_on_insert ON scenarios`,
  `CREATE FUNCTION scenarist_add_inserted_run_jobs() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     IF to_regnamespace('graphile_worker') IS NULL THEN RETURN NULL; END IF;
     IF NOT EXISTS (SELECT 1 FROM inserted WHERE status = 'QUEUED') THEN RETURN NULL; END IF;
     PERFORM graphile_worker.add_jobs(ARRAY(
       SELECT ${runJobSpec('inserted')} FROM inserted WHERE inserted.status = 'QUEUED' ORDER BY inserted.queue_order, inserted.seq
     ));
     RETURN NULL;
   END $$`,
  `CREATE TRIGGER scenario_run_jobs_on_insert AFTER INSERT ON scenarios REFERENCING NEW TABLE AS inserted
     FOR EACH STATEMENT EXECUTE FUNCTION scenarist_add_inserted_run_jobs()`,
];
