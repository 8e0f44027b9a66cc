import { sql, type Kysely } from 'kysely';
import type { StoreDialect } from '../dialect.js';
import { RUN_TASK, runAtOfQueueOrder, SESSION_QUEUE_PREFIX } from '../postgres/graphile-queue.js';

/**
 * PostgreSQL: a run's graphile-worker job is added by the statement that queues the run (a client's
 * run, a batch run, an experiment created queued, a run put back by the reaper or a shutdown), by
 * trigger, as the outbox adds its event. A run request is so one statement and one round trip, where
 * it was the state change and then the job's `add_jobs` (after the commit, batched); and the job
 * exists if and only if the QUEUED state committed, whichever process or crash comes between. The
 * job is the one `addRunJobs` makes (graphile-queue.ts): keyed by the scenario, in its session's
 * named queue, due at an instant derived from `queue_order`.
 *
 * graphile-worker's schema is made when an executor starts (its own migrations), after the store's;
 * until it exists (a store opened only to migrate, a store test) the trigger adds nothing, and the
 * reaper of the first executor to start adds a job for every QUEUED scenario without one.
 *
 * The constants are written into the function when this migration runs: a later change of the task
 * name, queue names or run-at rule needs a migration that replaces the function.
 *
 * SQLite has no job table: its one process reads the queue from the scenarios rows.
 */
export function runJobsMigration(dialect: StoreDialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      if (dialect !== 'postgres') return;
      for (const statement of postgresStatements()) await sql.raw(statement).execute(db);
    },
  };
}

/** The job spec of the run in row variable `row` (the one `addRunJobs` makes: see this file's comment). */
export function runJobSpec(row: string): string {
  return `ROW(
       '${RUN_TASK}'::text,
       json_build_object('scenarioId', ${row}.id),
       '${SESSION_QUEUE_PREFIX}'::text || ${row}.session_id,
       ${runAtOfQueueOrder(`${row}.queue_order`)},
       1000::smallint,
       ${row}.id,
       0::smallint,
       NULL::text[]
     )::graphile_worker.job_spec`;
}

function postgresStatements(): string[] {
  const spec = runJobSpec('NEW');
  return [
    `CREATE FUNCTION scenarist_add_run_job() RETURNS trigger LANGUAGE plpgsql AS $$
     BEGIN
       IF to_regnamespace('graphile_worker') IS NULL THEN RETURN NULL; END IF;
       PERFORM graphile_worker.add_jobs(ARRAY[${spec}]);
       RETURN NULL;
     END $$`,
    `CREATE TRIGGER scenario_run_job_on_queue AFTER UPDATE OF status ON scenarios FOR EACH ROW
       WHEN (NEW.status = 'QUEUED' AND OLD.status IS DISTINCT FROM 'QUEUED')
       EXECUTE FUNCTION scenarist_add_run_job()`,
    `CREATE TRIGGER scenario_run_job_on_insert AFTER INSERT ON scenarios FOR EACH ROW
       WHEN (NEW.status = 'QUEUED')
       EXECUTE FUNCTION scenarist_add_run_job()`,
  ];
}
