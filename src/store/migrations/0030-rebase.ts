import type { Kysely } from 'kysely';

/**
 * Rebase and re-plan (docs/api/cycles.md, "Rebase and re-plan"). A rebased scenario names the one it
 * was made from (`rebased_from`); a re-plan names the published plan's scenario it follows
 * (`replans`). Both are plain ids, not foreign keys: the old scenarios stay as history, and deleting
 * one leaves the id as a record of where its successor came from. A dataset made by a rebase that
 * skipped edits (`on_conflict: "skip"`) records them in `rebase_skipped` (JSON array), shown in its
 * lineage. Plain added columns: the same statements on both dialects.
 */
export const rebaseMigration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema.alterTable('scenarios').addColumn('rebased_from', 'text').execute();
    await db.schema.alterTable('scenarios').addColumn('replans', 'text').execute();
    await db.schema.alterTable('datasets').addColumn('rebase_skipped', 'text').execute();
  },
};
