import type { Kysely } from 'kysely';

/**
 * A report is a frozen comparison or a frozen gate verdict (docs/api/gates.md, "Saving a gate as a
 * report"). The kind is a column, so the report list says which one each is without reading bodies;
 * every report saved before is a comparison.
 */
export const reportKindMigration = {
  async up(db: Kysely<unknown>): Promise<void> {
    await db.schema
      .alterTable('reports')
      .addColumn('kind', 'text', (c) => c.notNull().defaultTo('comparison'))
      .execute();
  },
};
