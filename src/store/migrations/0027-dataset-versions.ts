import { sql, type Kysely } from 'kysely';
import type { StoreDialect } from '../dialect.js';
import { PLAN_PROTECTION_MARK } from '../plan-protection.js';

/**
 * Dataset versions (docs/api/cycles.md, "Versions"). Replacing a dataset keeps what it held: every
 * write of a key adds a row to `dataset_versions` (the current one included) naming its tables by
 * content hash in `dataset_version_tables`, and bumps the key's `datasets.version_no`. A derived
 * dataset records the parent's `version_no` it was made from (`parent_version`).
 *
 * What a version is used by is recorded where the use is, by trigger, so every path that creates,
 * resets, reruns or claims a scenario records it (the experiment, gate, batch and copy writes too):
 * - `scenarios.dataset_version`: the key's version when the scenario was created, reset to CREATED,
 *   or queued again after it ended;
 * - `scenarios.result_dataset_version`: the version when a run claimed it; the run then reads that
 *   version (src/executor/run/dataset-cache.ts), so it is the version its result was computed on;
 * - `plans.dataset_version`: its scenario's result version at publication.
 *
 * The published plan no longer forbids replacing its dataset (the cycle needs new data under the
 * same key); the protection moves to the version it was computed on: that version cannot be deleted
 * (pruned) while the plan is current. Deleting the key itself stays refused (migration 0016).
 *
 * Every existing dataset becomes version 1 with its current tables; existing scenarios were created
 * and run on it, and so were the current plans.
 */
export function datasetVersionsMigration(dialect: StoreDialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('datasets').addColumn('version_no', 'integer', (c) => c.notNull().defaultTo(1)).execute();
      await db.schema.alterTable('datasets').addColumn('parent_version', 'integer').execute();
      await db.schema
        .createTable('dataset_versions')
        .addColumn('seq', dialect === 'postgres' ? 'serial' : 'integer', (c) => c.primaryKey())
        .addColumn('session_id', 'text', (c) => c.notNull().references('sessions.id').onDelete('cascade'))
        .addColumn('key', 'text', (c) => c.notNull())
        .addColumn('version_no', 'integer', (c) => c.notNull())
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('created_at', 'text', (c) => c.notNull())
        .addColumn('created_by', 'text')
        .addColumn('parent_key', 'text')
        .addColumn('parent_version', 'integer')
        .addColumn('edits_json', 'text')
        .addUniqueConstraint('dataset_versions_key', ['session_id', 'key', 'version_no'])
        .execute();
      await db.schema
        .createTable('dataset_version_tables')
        .addColumn('version_seq', 'integer', (c) => c.notNull().references('dataset_versions.seq').onDelete('cascade'))
        .addColumn('position', 'integer', (c) => c.notNull())
        .addColumn('name', 'text', (c) => c.notNull())
        // No cascade: a content goes only when nothing names it (`dropUnusedContents`).
        .addColumn('hash', 'text', (c) => c.notNull().references('table_contents.hash'))
        .addPrimaryKeyConstraint('dataset_version_tables_pk', ['version_seq', 'position'])
        .execute();
      await db.schema.createIndex('dataset_version_tables_by_hash').on('dataset_version_tables').column('hash').execute();
      await db.schema.alterTable('scenarios').addColumn('dataset_version', 'integer').execute();
      await db.schema.alterTable('scenarios').addColumn('result_dataset_version', 'integer').execute();
      await db.schema.alterTable('plans').addColumn('dataset_version', 'integer').execute();
      await db.schema.createIndex('scenarios_by_dataset_version').on('scenarios').columns(['session_id', 'dataset_key', 'dataset_version']).execute();

      for (const statement of backfill) await sql.raw(statement).execute(db);
      for (const statement of dialect === 'postgres' ? postgresStatements : sqliteStatements) await sql.raw(statement).execute(db);
    },
  };
}

const backfill = [
  `UPDATE datasets SET parent_version = 1 WHERE parent_key IS NOT NULL
     AND EXISTS (SELECT 1 FROM datasets p WHERE p.session_id = datasets.session_id AND p.key = datasets.parent_key)`,
  `INSERT INTO dataset_versions (session_id, key, version_no, kind, created_at, created_by, parent_key, parent_version, edits_json)
     SELECT session_id, key, 1, kind, created_at, NULL, parent_key, parent_version, edits_json FROM datasets ORDER BY seq`,
  `INSERT INTO dataset_version_tables (version_seq, position, name, hash)
     SELECT v.seq, dt.position, dt.name, dt.hash FROM dataset_tables dt
       JOIN datasets d ON d.seq = dt.dataset_seq
       JOIN dataset_versions v ON v.session_id = d.session_id AND v.key = d.key AND v.version_no = 1`,
  `UPDATE scenarios SET dataset_version = 1, result_dataset_version = CASE WHEN started_at IS NOT NULL THEN 1 END`,
  `UPDATE plans SET dataset_version = 1 WHERE ended_at IS NULL`,
];

const currentVersion = `(SELECT version_no FROM datasets WHERE datasets.session_id = NEW.session_id AND datasets.key = NEW.dataset_key)`;
/** A reset (back to CREATED) or a rerun (queued again after it ended) starts over on the current version. */
const RESET_OR_RERUN = `((NEW.status = 'CREATED' AND OLD.status <> 'CREATED') OR (NEW.status = 'QUEUED' AND OLD.status IN ('COMPLETE', 'FAILED')))`;
const CLAIMED = `(NEW.status = 'PROCESSING' AND OLD.status <> 'PROCESSING')`;
const PLAN_VERSION = `EXISTS (SELECT 1 FROM plans WHERE plans.session_id = OLD.session_id AND plans.dataset_key = OLD.key
  AND plans.dataset_version = OLD.version_no AND plans.ended_at IS NULL)`;
const raise = `'${PLAN_PROTECTION_MARK}:dataset'`;

const sqliteStatements = [
  // The plan's dataset may be replaced now: only deleting it stays refused (plan_dataset_delete).
  `DROP TRIGGER plan_dataset_update`,
  `CREATE TRIGGER plan_dataset_version_delete BEFORE DELETE ON dataset_versions WHEN ${PLAN_VERSION}
   BEGIN SELECT RAISE(ABORT, ${raise}); END`,
  // SQLite cannot assign NEW: the row is updated once written (one indexed statement, same transaction).
  `CREATE TRIGGER scenario_dataset_version_insert AFTER INSERT ON scenarios WHEN NEW.dataset_version IS NULL
   BEGIN UPDATE scenarios SET dataset_version = ${currentVersion} WHERE seq = NEW.seq; END`,
  `CREATE TRIGGER scenario_dataset_version_reset AFTER UPDATE OF status ON scenarios WHEN ${RESET_OR_RERUN}
   BEGIN UPDATE scenarios SET dataset_version = ${currentVersion}, result_dataset_version = NULL WHERE seq = NEW.seq; END`,
  `CREATE TRIGGER scenario_dataset_version_claim AFTER UPDATE OF status ON scenarios WHEN ${CLAIMED}
   BEGIN UPDATE scenarios SET result_dataset_version = ${currentVersion} WHERE seq = NEW.seq; END`,
  `CREATE TRIGGER plan_dataset_version_insert AFTER INSERT ON plans WHEN NEW.dataset_version IS NULL
   BEGIN UPDATE plans SET dataset_version = (SELECT COALESCE(result_dataset_version, dataset_version) FROM scenarios WHERE scenarios.id = NEW.scenario_id)
     WHERE seq = NEW.seq; END`,
];

const postgresStatements = [
  `DROP TRIGGER plan_dataset ON datasets`,
  `CREATE TRIGGER plan_dataset BEFORE DELETE ON datasets FOR EACH ROW EXECUTE FUNCTION scenarist_plan_dataset()`,
  `CREATE FUNCTION scenarist_plan_dataset_version() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     IF ${PLAN_VERSION} THEN RAISE EXCEPTION USING MESSAGE = ${raise}, ERRCODE = 'P0001'; END IF;
     RETURN OLD;
   END $$`,
  `CREATE TRIGGER plan_dataset_version BEFORE DELETE ON dataset_versions FOR EACH ROW EXECUTE FUNCTION scenarist_plan_dataset_version()`,
  `CREATE FUNCTION scenarist_scenario_dataset_version() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     IF TG_OP = 'INSERT' THEN
       NEW.dataset_version := ${currentVersion};
     ELSIF NEW.status = 'PROCESSING' THEN
       NEW.result_dataset_version := ${currentVersion};
     ELSE
       NEW.dataset_version := ${currentVersion};
       NEW.result_dataset_version := NULL;
     END IF;
     RETURN NEW;
   END $$`,
  `CREATE TRIGGER scenario_dataset_version_insert BEFORE INSERT ON scenarios FOR EACH ROW WHEN (NEW.dataset_version IS NULL)
     EXECUTE FUNCTION scenarist_scenario_dataset_version()`,
  `CREATE TRIGGER scenario_dataset_version_update BEFORE UPDATE OF status ON scenarios FOR EACH ROW WHEN (${RESET_OR_RERUN} OR ${CLAIMED})
     EXECUTE FUNCTION scenarist_scenario_dataset_version()`,
  `CREATE FUNCTION scenarist_plan_dataset_version_insert() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     NEW.dataset_version := (SELECT COALESCE(result_dataset_version, dataset_version) FROM scenarios WHERE scenarios.id = NEW.scenario_id);
     RETURN NEW;
   END $$`,
  `CREATE TRIGGER plan_dataset_version_insert BEFORE INSERT ON plans FOR EACH ROW WHEN (NEW.dataset_version IS NULL)
     EXECUTE FUNCTION scenarist_plan_dataset_version_insert()`,
];
