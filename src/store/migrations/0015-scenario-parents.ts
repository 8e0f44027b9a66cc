import { sql, type Kysely } from 'kysely';
import type { StoreDialect } from '../dialect.js';

/**
 * Scenario trees (docs/api/what-ifs.md): a branch points to the scenario it was made from by
 * `parent_id` (null for a root). Deleting a scenario keeps its branches: a trigger, in the statement
 * that deletes it (single delete, batch delete, a session's cancel), sets their `parent_id` to null and
 * records the deleted parent's id and tag in `deleted_parent_id` / `deleted_parent_tag`, so a root made
 * by a deletion is told apart from one created as a root. The index on (session, parent, seq) serves
 * the list route's `parent` filter in creation order, the lineage walk down the tree and the trigger.
 */
export function scenarioParentsMigration(dialect: StoreDialect) {
  return {
    async up(db: Kysely<unknown>): Promise<void> {
      await db.schema.alterTable('scenarios').addColumn('parent_id', 'text').execute();
      await db.schema.alterTable('scenarios').addColumn('deleted_parent_id', 'text').execute();
      await db.schema.alterTable('scenarios').addColumn('deleted_parent_tag', 'text').execute();
      await db.schema.createIndex('scenarios_by_session_parent').on('scenarios').columns(['session_id', 'parent_id', 'seq']).execute();
      const statements = dialect === 'postgres' ? postgresStatements : sqliteStatements;
      for (const statement of statements) await sql.raw(statement).execute(db);
    },
  };
}

// Only the parent columns are set, so neither the outbox's nor the experiments' `UPDATE OF status`
// triggers fire: a branch losing its parent is not a life-cycle event.
const orphanBranches = `UPDATE scenarios SET parent_id = NULL, deleted_parent_id = OLD.id, deleted_parent_tag = OLD.tag
     WHERE session_id = OLD.session_id AND parent_id = OLD.id`;

const sqliteStatements = [
  `CREATE TRIGGER scenario_parent_deleted AFTER DELETE ON scenarios BEGIN
     ${orphanBranches};
   END`,
];

const postgresStatements = [
  `CREATE FUNCTION scenarist_scenario_parent_deleted() RETURNS trigger LANGUAGE plpgsql AS $$
   BEGIN
     ${orphanBranches};
     RETURN NULL;
   END $$`,
  `CREATE TRIGGER scenario_parent_deleted AFTER DELETE ON scenarios FOR EACH ROW
     EXECUTE FUNCTION scenarist_scenario_parent_deleted()`,
];
