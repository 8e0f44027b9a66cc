import { sql, type Kysely } from 'kysely';
import type { StoreDialect } from '../dialect.js';

/**
 * An experiment is not complete while a scenario of it is queued: the statement that queues one (a
 * run, a batch run, a restart putting an interrupted run back) clears the experiment's `completed_at`
 * and counts the queuing in `queued_runs`, by trigger. The progress tracker used to clear it only when
 * it happened to read the scenario queued or running, so a rerun that ended between two of its reads
 * left the old completion standing and no `experiment.completed` was logged. A completion is now
 * claimed for the `queued_runs` it was judged at (`ExperimentsRepository.markCompleted`), so one judged
 * before a later queuing never lands.
 */
export function experimentRerunsMigration(dialect: StoreDialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .alterTable('experiments')
        .addColumn('queued_runs', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      const statements = dialect === 'postgres' ? postgresStatements : sqliteStatements;
      for (const statement of statements) await sql.raw(statement).execute(db);
    },
  };
}

const reopen = `UPDATE experiments SET completed_at = NULL, queued_runs = queued_runs + 1 WHERE id = NEW.experiment_id`;

const sqliteStatements = [
  `CREATE TRIGGER experiment_scenario_queued AFTER UPDATE OF status ON scenarios
     WHEN NEW.status = 'QUEUED' AND OLD.status IS NOT 'QUEUED' AND NEW.experiment_id IS NOT NULL
   BEGIN ${reopen}; END`,
];

const postgresStatements = [
  `CREATE FUNCTION scenarist_experiment_scenario_queued() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN ${reopen}; RETURN NULL; END $$`,
  `CREATE TRIGGER experiment_scenario_queued AFTER UPDATE OF status ON scenarios FOR EACH ROW
     WHEN (NEW.status = 'QUEUED' AND OLD.status IS DISTINCT FROM 'QUEUED' AND NEW.experiment_id IS NOT NULL)
     EXECUTE FUNCTION scenarist_experiment_scenario_queued()`,
];
