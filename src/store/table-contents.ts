import { createHash } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { Column } from '../domain/dataset-model.js';
import type { Database } from './database.js';
import { dialectAdapterOf } from './dialect.js';
import { baseContents, type TableBase } from './table-pack-base.js';
import { dropUnusedPacks, packsOf, writePacked } from './table-pack-store.js';

export type { TableBase } from './table-pack-base.js';

/**
 * Tables are stored by content: a table is kept once in `table_contents` under the SHA-256 of its JSON
 * text, and datasets name their tables by that hash (`dataset_tables`). A derived dataset, a session copy
 * or an identical re-upload so shares every table it does not change; a content is deleted once no
 * dataset names it.
 *
 * Underneath, a table's text is stored in packs (`table_packs`): a table written with nothing to share
 * with is one pack, named whole by its manifest (`table_contents.manifest`), as a whole-table row was.
 * A table written as a new version of another, or derived from one (its *base*: `TableBase` in
 * `src/store/table-pack-base.ts`), is cut into chunks of rows (`src/store/table-chunking.ts`), as its
 * base is again in memory (the cut is deterministic): the chunks the base has are named where the base
 * stores them, and all the others go into one new pack. Its manifest lists the stretches of packs it
 * is made of (`src/store/table-pack-manifest.ts`); consecutive reused chunks are one stretch, so a
 * version costs about what changed plus a stretch per change. `packedTable`
 * (`src/store/table-pack-text.ts`) reads a table's packs in the query that reads it.
 */

/** One table of a dataset as it is written: its name and its JSON text (`JSON.stringify` of the table). */
export interface StoredTable {
  readonly name: string;
  /** `{"columns":[...],"rows":[...]}`, exactly as `JSON.stringify` writes the table. */
  readonly json: string;
  readonly rows: number;
  readonly columns: readonly Column[];
}

/** The hash a table's content is stored under. */
export function contentHash(json: string): string {
  return createHash('sha256').update(json).digest('hex');
}

/** A table to store from its parsed form. */
export function storedTable(name: string, table: { readonly columns: readonly Column[]; readonly rows: readonly unknown[] }): StoredTable {
  return { name, json: JSON.stringify(table), rows: table.rows.length, columns: table.columns };
}

/** The stored tables of a `tables` object's JSON text (parsed once; for small inputs and migrations). */
export function storedTablesOfJson(tablesJson: string): StoredTable[] {
  const tables = JSON.parse(tablesJson) as Record<string, { columns: Column[]; rows: unknown[] }>;
  return Object.entries(tables).map(([name, table]) => storedTable(name, table));
}

/** The JSON text of a `tables` object from its tables' texts in order, as `JSON.stringify` would write it. */
export function joinTablesJson(tables: readonly { readonly name: string; readonly json: string }[]): string {
  return `{${tables.map((t) => `${JSON.stringify(t.name)}:${t.json}`).join(',')}}`;
}

/**
 * Stores each content not stored yet, and returns the tables' hashes in order. A content already
 * stored is not written again, but its row is locked for this transaction (the update's `where` never
 * holds; PostgreSQL locks the conflicting row all the same), so a concurrent `dropUnusedContents`
 * skips it until the dataset naming it has committed. A new content's text is stored against the
 * tables of the same name in `bases` (`writePacked`), or whole when there are none.
 */
export async function putContents(trx: Kysely<Database>, tables: readonly StoredTable[], bases: readonly TableBase[] = []): Promise<string[]> {
  const hashes = tables.map((t) => contentHash(t.json));
  const unique = new Map<string, StoredTable>();
  tables.forEach((t, i) => unique.set(hashes[i]!, t));
  const fresh: [string, StoredTable][] = [];
  for (const [hash, table] of unique) {
    const inserted = await trx
      .insertInto('table_contents')
      .values({ hash, manifest: '', row_count: table.rows, columns_json: JSON.stringify(table.columns) })
      .onConflict((oc) =>
        oc
          .column('hash')
          .doUpdateSet((eb) => ({ hash: eb.ref('excluded.hash') }))
          .where(sql<boolean>`1 = 0`),
      )
      .returning('hash')
      .executeTakeFirst();
    if (inserted) fresh.push([hash, table]);
  }
  if (fresh.length === 0) return hashes;
  const baseOf = bases.length > 0 ? await baseContents(trx, bases, [...new Set(fresh.map(([, t]) => t.name))]) : new Map<string, string[]>();
  for (const [hash, table] of fresh) await writePacked(trx, hash, table, baseOf.get(table.name) ?? []);
  return hashes;
}

/** Names a dataset's tables (by its `seq`) in order. */
export async function linkTables(trx: Kysely<Database>, datasetSeq: number, tables: readonly StoredTable[], hashes: readonly string[]): Promise<void> {
  if (tables.length === 0) return;
  await trx
    .insertInto('dataset_tables')
    .values(tables.map((t, position) => ({ dataset_seq: datasetSeq, position, name: t.name, hash: hashes[position]! })))
    .execute();
}

/** The hashes the given datasets name (asked before they are deleted or replaced). */
export async function contentsOfDatasets(trx: Kysely<Database>, datasetSeqs: readonly number[]): Promise<string[]> {
  if (datasetSeqs.length === 0) return [];
  const rows = await trx.selectFrom('dataset_tables').select('hash').distinct().where('dataset_seq', 'in', datasetSeqs).execute();
  return rows.map((r) => r.hash);
}

/** The hashes the datasets of a session name (asked before the session is deleted). */
export async function contentsOfSession(trx: Kysely<Database>, sessionId: string): Promise<string[]> {
  const rows = await trx
    .selectFrom('dataset_tables as dt')
    .innerJoin('datasets as d', 'd.seq', 'dt.dataset_seq')
    .select('dt.hash')
    .distinct()
    .where('d.session_id', '=', sessionId)
    .union(
      trx
        .selectFrom('dataset_version_tables as vt')
        .innerJoin('dataset_versions as v', 'v.seq', 'vt.version_seq')
        .select('vt.hash')
        .where('v.session_id', '=', sessionId),
    )
    .execute();
  return rows.map((r) => r.hash);
}

/**
 * Deletes those of `candidates` that no dataset names any more, with the packs only they named; returns
 * how many contents went. A content another transaction is about to name holds a row lock (see
 * `putContents`; a foreign key check holds one too), and is skipped rather than waited for: at worst an
 * unused content stays until the next delete that names it as a candidate.
 */
export async function dropUnusedContents(trx: Kysely<Database>, candidates: readonly string[]): Promise<number> {
  if (candidates.length === 0) return 0;
  const unused = trx
    .selectFrom('table_contents as c')
    .select('c.hash')
    .where('c.hash', 'in', candidates)
    .where((eb) => eb.not(eb.exists(eb.selectFrom('dataset_tables as dt').select('dt.hash').whereRef('dt.hash', '=', 'c.hash'))))
    // A dataset's earlier versions name contents too (migration 0027): those stay while a version names them.
    .where((eb) => eb.not(eb.exists(eb.selectFrom('dataset_version_tables as vt').select('vt.hash').whereRef('vt.hash', '=', 'c.hash'))));
  const dropped = await trx
    .deleteFrom('table_contents')
    .where('hash', 'in', dialectAdapterOf(trx).claimingRows(unused))
    .returning('manifest')
    .execute();
  // Their packs that no other table names go with them (their `table_content_packs` rows went by cascade).
  await dropUnusedPacks(trx, dropped.flatMap((r) => packsOf(r.manifest)));
  return dropped.length;
}
