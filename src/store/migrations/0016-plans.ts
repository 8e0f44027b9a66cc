import { sql, type Kysely } from 'kysely';
import type { StoreDialect } from '../dialect.js';
import { PLAN_PROTECTION_MARK } from '../plan-protection.js';

/**
 * The published plan of each session, with its history (docs/api/plans-and-reports.md): one row per
 * publication, `ended_at` null while it is the current plan (at most one per session, by a partial
 * unique index). `scenario_id` has no foreign key on purpose: a superseded or withdrawn plan stays in
 * the history after its scenario is deleted; its tag and KPIs are copied into the row.
 *
 * Protection lives in the database, so no race can slip past it: triggers refuse to change what a
 * current plan decided (its scenario's status, algorithm, parameters and dataset; its dataset's
 * content; the session) and to delete any of them, raising an error marked `PLAN_PROTECTION_MARK`
 * (src/store/plan-protection.ts) that the services turn into 409s. A write that checked first and a
 * publication that commits meanwhile cannot both win: the trigger runs after the row lock the write
 * takes (PostgreSQL) or inside the one write transaction (SQLite), and reads the committed plan.
 */
export function plansMigration(dialect: StoreDialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema
        .createTable('plans')
        .addColumn('seq', dialect === 'postgres' ? 'serial' : 'integer', (c) => c.primaryKey())
        .addColumn('id', 'text', (c) => c.notNull().unique())
        .addColumn('session_id', 'text', (c) => c.notNull().references('sessions.id').onDelete('cascade'))
        .addColumn('scenario_id', 'text', (c) => c.notNull())
        .addColumn('tag', 'text', (c) => c.notNull())
        .addColumn('dataset_key', 'text', (c) => c.notNull())
        .addColumn('algo_name', 'text', (c) => c.notNull())
        .addColumn('kpis', 'text', (c) => c.notNull())
        .addColumn('note', 'text', (c) => c.notNull())
        .addColumn('published_by_id', 'text', (c) => c.notNull())
        .addColumn('published_by_name', 'text')
        .addColumn('published_at', 'text', (c) => c.notNull())
        .addColumn('ended_at', 'text')
        .addColumn('ended_how', 'text')
        .addColumn('ended_note', 'text')
        .addColumn('ended_by_id', 'text')
        .addColumn('ended_by_name', 'text')
        .execute();
      await db.schema.createIndex('plans_current').on('plans').column('session_id').unique().where(sql.ref('ended_at'), 'is', null).execute();
      await db.schema.createIndex('plans_current_scenario').on('plans').column('scenario_id').where(sql.ref('ended_at'), 'is', null).execute();
      await db.schema.createIndex('plans_history').on('plans').columns(['session_id', 'seq']).execute();
      for (const statement of dialect === 'postgres' ? postgresStatements : sqliteStatements) await sql.raw(statement).execute(db);
    },
  };
}

/** The current plan protecting a scenario, a dataset, a session (SQL over the trigger's `OLD` row). */
const currentPlanOf = {
  scenario: `EXISTS (SELECT 1 FROM plans WHERE plans.scenario_id = OLD.id AND plans.ended_at IS NULL)`,
  dataset: `EXISTS (SELECT 1 FROM plans WHERE plans.session_id = OLD.session_id AND plans.dataset_key = OLD.key AND plans.ended_at IS NULL)`,
  session: `EXISTS (SELECT 1 FROM plans WHERE plans.session_id = OLD.id AND plans.ended_at IS NULL)`,
};

/**
 * What of a scenario a plan decided: a change of any of these is refused. Only a COMPLETE scenario can
 * be a current plan (published COMPLETE, and kept so by these triggers), so the triggers are asked
 * only of COMPLETE rows: the run path's status changes never pay for the look-up.
 */
const SCENARIO_COLUMNS = 'status, algo_name, algo_params, data_params, dataset_key';
const SCENARIO_CHANGED = `(OLD.status IS DISTINCT FROM NEW.status OR OLD.algo_name IS DISTINCT FROM NEW.algo_name
  OR OLD.algo_params IS DISTINCT FROM NEW.algo_params OR OLD.data_params IS DISTINCT FROM NEW.data_params
  OR OLD.dataset_key IS DISTINCT FROM NEW.dataset_key)`;

const raise = (kind: string) => `'${PLAN_PROTECTION_MARK}:${kind}'`;

const sqliteStatements = [
  `CREATE TRIGGER plan_scenario_delete BEFORE DELETE ON scenarios WHEN OLD.status = 'COMPLETE' AND ${currentPlanOf.scenario}
   BEGIN SELECT RAISE(ABORT, ${raise('scenario')}); END`,
  `CREATE TRIGGER plan_scenario_update BEFORE UPDATE OF ${SCENARIO_COLUMNS} ON scenarios
     WHEN OLD.status = 'COMPLETE' AND ${SCENARIO_CHANGED.replaceAll('IS DISTINCT FROM', 'IS NOT')} AND ${currentPlanOf.scenario}
   BEGIN SELECT RAISE(ABORT, ${raise('scenario')}); END`,
  `CREATE TRIGGER plan_dataset_delete BEFORE DELETE ON datasets WHEN ${currentPlanOf.dataset}
   BEGIN SELECT RAISE(ABORT, ${raise('dataset')}); END`,
  `CREATE TRIGGER plan_dataset_update BEFORE UPDATE OF version ON datasets WHEN ${currentPlanOf.dataset}
   BEGIN SELECT RAISE(ABORT, ${raise('dataset')}); END`,
  `CREATE TRIGGER plan_session_delete BEFORE DELETE ON sessions WHEN ${currentPlanOf.session}
   BEGIN SELECT RAISE(ABORT, ${raise('session')}); END`,
];

const postgresFunction = (name: string, kind: string, condition: string) => `CREATE FUNCTION ${name}() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     IF ${condition} THEN RAISE EXCEPTION USING MESSAGE = ${raise(kind)}, ERRCODE = 'P0001'; END IF;
     RETURN CASE WHEN TG_OP = 'DELETE' THEN OLD ELSE NEW END;
   END $$`;

const postgresStatements = [
  postgresFunction('scenarist_plan_scenario', 'scenario', `(TG_OP = 'DELETE' OR ${SCENARIO_CHANGED}) AND ${currentPlanOf.scenario}`),
  `CREATE TRIGGER plan_scenario BEFORE DELETE OR UPDATE OF ${SCENARIO_COLUMNS} ON scenarios FOR EACH ROW
     WHEN (OLD.status = 'COMPLETE') EXECUTE FUNCTION scenarist_plan_scenario()`,
  postgresFunction('scenarist_plan_dataset', 'dataset', currentPlanOf.dataset),
  `CREATE TRIGGER plan_dataset BEFORE DELETE OR UPDATE OF version ON datasets FOR EACH ROW EXECUTE FUNCTION scenarist_plan_dataset()`,
  postgresFunction('scenarist_plan_session', 'session', currentPlanOf.session),
  `CREATE TRIGGER plan_session BEFORE DELETE ON sessions FOR EACH ROW EXECUTE FUNCTION scenarist_plan_session()`,
];
