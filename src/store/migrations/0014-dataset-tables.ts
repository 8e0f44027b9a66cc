import { sql, type Kysely } from 'kysely';
import type { Database } from '../database.js';
import { contentHash, linkTables, storedTablesOfJson, type StoredTable } from '../table-contents.js';

/**
 * Tables stored by content (see `src/store/table-contents.ts`): `table_contents` holds each distinct
 * table's JSON text once, by its SHA-256; `dataset_tables` lists a dataset's tables by hash. Datasets
 * also gain their lineage (`parent_key`, `edits_json`). Every stored dataset's `tables_json` is moved
 * over, one dataset at a time (a store with large datasets is never read whole into memory), and the
 * column is dropped.
 */
export const datasetTablesMigration = {
  async up(untyped: Kysely<unknown>): Promise<void> {
    await untyped.schema
      .createTable('table_contents')
      .addColumn('hash', 'text', (c) => c.primaryKey())
      .addColumn('content', 'text', (c) => c.notNull())
      .addColumn('row_count', 'integer', (c) => c.notNull())
      .addColumn('columns_json', 'text', (c) => c.notNull())
      .execute();
    await untyped.schema
      .createTable('dataset_tables')
      .addColumn('dataset_seq', 'integer', (c) => c.notNull().references('datasets.seq').onDelete('cascade'))
      .addColumn('position', 'integer', (c) => c.notNull())
      .addColumn('name', 'text', (c) => c.notNull())
      // No cascade: a content goes only when nothing names it (`dropUnusedContents`).
      .addColumn('hash', 'text', (c) => c.notNull().references('table_contents.hash'))
      .addPrimaryKeyConstraint('dataset_tables_pk', ['dataset_seq', 'position'])
      .execute();
    await untyped.schema.createIndex('dataset_tables_by_hash').on('dataset_tables').column('hash').execute();
    await untyped.schema.alterTable('datasets').addColumn('parent_key', 'text').execute();
    await untyped.schema.alterTable('datasets').addColumn('edits_json', 'text').execute();

    const db = untyped as unknown as Kysely<Database>;
    const { rows } = await sql<{ seq: number }>`select seq from datasets order by seq`.execute(db);
    for (const { seq } of rows) {
      const { rows: found } = await sql<{ tables_json: string }>`select tables_json from datasets where seq = ${seq}`.execute(db);
      const tables = storedTablesOfJson(found[0]!.tables_json);
      await linkTables(db, seq, tables, await putWholeContents(db, tables));
    }
    // SQLite drops a column by rewriting the table; the outbox triggers on datasets name other columns only.
    await untyped.schema.alterTable('datasets').dropColumn('tables_json').execute();
  },
};

/**
 * Each table's whole text into `table_contents.content`, as this schema stores it; migration 0028 then
 * puts them into packs (`putContents` writes today's schema, which does not exist yet here).
 */
async function putWholeContents(db: Kysely<Database>, tables: readonly StoredTable[]): Promise<string[]> {
  const hashes = tables.map((t) => contentHash(t.json));
  for (const [i, table] of tables.entries()) {
    await sql`insert into table_contents (hash, content, row_count, columns_json)
      values (${hashes[i]!}, ${table.json}, ${table.rows}, ${JSON.stringify(table.columns)}) on conflict (hash) do nothing`.execute(db);
  }
  return hashes;
}
