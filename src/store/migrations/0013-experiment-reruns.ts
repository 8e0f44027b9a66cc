import { sql, type Kysely } from 'kysely';
import type { StoreDialect } from '../dialect.js';

/**
 * An experiment is not complete while a scenario of it is queued: the statement that queues one (a
 * run, a batch run, a restart putting an interrupted run back) clears the experiment's `completed_at`
 * and changes its `reopen_stamp`, by trigger. The progress tracker used to clear it only when it
 * happened to read the scenario queued or running, so a rerun that ended between two of its reads
 * left the old completion standing and no `experiment.completed` was logged. A completion is now
 * claimed for the `reopen_stamp` it was judged at (`ExperimentsRepository.markCompleted`), so one
 * judged before a later queuing never lands.
 *
 * The stamp is a count on SQLite (one writer; updating the row once per queued scenario is cheap) and
 * the queuing transaction's id on PostgreSQL, written once per transaction: there, updating the same
 * row once per scenario of a 10,000-scenario batch run would cost seconds of row versions.
 */
export function experimentRerunsMigration(dialect: StoreDialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .alterTable('experiments')
        .addColumn('reopen_stamp', dialect === 'postgres' ? 'bigint' : 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      const statements = dialect === 'postgres' ? postgresStatements : sqliteStatements;
      for (const statement of statements) await sql.raw(statement).execute(db);
    },
  };
}

const sqliteStatements = [
  `CREATE TRIGGER experiment_scenario_queued AFTER UPDATE OF status ON scenarios
     WHEN NEW.status = 'QUEUED' AND OLD.status IS NOT 'QUEUED' AND NEW.experiment_id IS NOT NULL
   BEGIN
     UPDATE experiments SET completed_at = NULL, reopen_stamp = reopen_stamp + 1 WHERE id = NEW.experiment_id;
   END`,
];

const postgresStatements = [
  `CREATE FUNCTION scenarist_experiment_scenario_queued() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     UPDATE experiments SET completed_at = NULL, reopen_stamp = txid_current()
       WHERE id = NEW.experiment_id AND reopen_stamp <> txid_current();
     RETURN NULL;
   END $$`,
  `CREATE TRIGGER experiment_scenario_queued AFTER UPDATE OF status ON scenarios FOR EACH ROW
     WHEN (NEW.status = 'QUEUED' AND OLD.status IS DISTINCT FROM 'QUEUED' AND NEW.experiment_id IS NOT NULL)
     EXECUTE FUNCTION scenarist_experiment_scenario_queued()`,
];
