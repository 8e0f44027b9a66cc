import type { Kysely } from 'kysely';
import type { Column } from '../domain/dataset-model.js';
import type { Database } from './database.js';
import { dialectAdapterOf } from './dialect.js';
import { appendSpan, spansBetween, unpackTableWithSpans, type PackSpan, type UnpackedTable } from './table-pack-manifest.js';
import { packedTable } from './table-pack-text.js';
import { chunkTable, type ChunkedTable } from './table-chunking.js';

/**
 * The cuts of the tables written or read as bases last in this process, by content hash. A content's
 * text is fixed by its hash, and its cut by its text, so a cut found here is the cut `chunkTable` would
 * make again; what it saves: a rebase or a derive chain writes a table and then, as the next table's
 * base, reads it back and cuts it again. Only the cut is kept, never where the text is stored (that is
 * read again each time: a content may be collected and written anew in other packs).
 */
const recentCuts = new Map<string, ChunkedTable>();
/** A 100k-row table's cut is some megabytes; a tree's chain is parent, child, grandchild. */
const RECENT_CUTS = 4;

export function rememberCut(hash: string, cut: ChunkedTable): void {
  recentCuts.delete(hash);
  recentCuts.set(hash, cut);
  while (recentCuts.size > RECENT_CUTS) recentCuts.delete(recentCuts.keys().next().value!);
}

function cutOf(hash: string, table: { readonly json: string; readonly columns: readonly Column[] }): ChunkedTable {
  const known = recentCuts.get(hash);
  if (known) return known;
  const cut = chunkTable(table);
  rememberCut(hash, cut);
  return cut;
}

/**
 * Where a table being written may find text stored already: the tables of the same name in the dataset
 * it replaces and in the dataset (or version) it is derived from. Only these are looked at: a new
 * version shares with its predecessor and a derive with its parent, which is where sharing is; a global
 * index of every chunk would cost a row per chunk on every upload.
 */
export type TableBase =
  | { readonly dataset: { readonly sessionId: string; readonly key: string } }
  | { readonly version: { readonly sessionId: string; readonly key: string; readonly versionNo: number } };

/** The content hashes of the bases' tables, by table name (only the names asked for). */
export async function baseContents(trx: Kysely<Database>, bases: readonly TableBase[], names: readonly string[]): Promise<Map<string, string[]>> {
  const byName = new Map<string, string[]>();
  if (names.length === 0) return byName;
  for (const base of bases) {
    const rows =
      'dataset' in base
        ? await trx
            .selectFrom('dataset_tables as dt')
            .innerJoin('datasets as d', 'd.seq', 'dt.dataset_seq')
            .select(['dt.name as name', 'dt.hash as hash'])
            .where('d.session_id', '=', base.dataset.sessionId)
            .where('d.key', '=', base.dataset.key)
            .where('dt.name', 'in', names)
            .execute()
        : await trx
            .selectFrom('dataset_version_tables as vt')
            .innerJoin('dataset_versions as v', 'v.seq', 'vt.version_seq')
            .select(['vt.name as name', 'vt.hash as hash'])
            .where('v.session_id', '=', base.version.sessionId)
            .where('v.key', '=', base.version.key)
            .where('v.version_no', '=', base.version.versionNo)
            .where('vt.name', 'in', names)
            .execute();
    for (const { name, hash } of rows) {
      const hashes = byName.get(name) ?? [];
      if (!hashes.includes(hash)) hashes.push(hash);
      byName.set(name, hashes);
    }
  }
  return byName;
}

/** Where a chunk of the new table's rows is stored already: its text in a base table. */
interface Found {
  readonly base: UnpackedTable;
  /** The chunk's text in the base table's text, `[from, to)`. */
  readonly from: number;
  readonly to: number;
  /** Whether it is the base's first chunk (no comma before it there). */
  readonly first: boolean;
}

/** The base tables read back and cut as a new table is cut: what a writer looks chunks up in. */
export interface BaseIndex {
  readonly tables: readonly (UnpackedTable & { readonly head: string; readonly tail: string })[];
  readonly chunks: ReadonlyMap<string, Found>;
}

/**
 * Reads the base contents `hashes` (in order of preference) and indexes their chunks by hash. Their packs
 * are locked first, for this transaction (PostgreSQL: `for share`), so a collection running beside it
 * skips them (see `dropUnusedPacks`): a pack the new table names stays until it has committed. A base
 * whose packs were not all locked (collected meanwhile) is left out.
 */
export async function readBases(trx: Kysely<Database>, hashes: readonly string[]): Promise<BaseIndex> {
  const adapter = dialectAdapterOf(trx);
  const packs = trx.selectFrom('table_packs').select('id').where('id', 'in', trx.selectFrom('table_content_packs').select('pack_id').where('hash', 'in', hashes));
  const locked = new Set((await adapter.sharingRows(packs).execute()).map((r) => Number(r.id)));
  const rows = await trx.selectFrom('table_contents as c').select(['c.hash as hash', 'c.columns_json as columnsJson', packedTable(trx, 'c').as('packed')]).where('c.hash', 'in', hashes).execute();
  const tables: (UnpackedTable & { head: string; tail: string })[] = [];
  const chunks = new Map<string, Found>();
  for (const hash of hashes) {
    const row = rows.find((r) => r.hash === hash);
    if (!row) continue;
    const base = unpackTableWithSpans(row.packed);
    if (!base.spans.every((s) => locked.has(s.pack))) continue;
    const cut = cutOf(hash, { json: base.text, columns: JSON.parse(row.columnsJson) as Column[] });
    tables.push({ ...base, head: cut.head, tail: cut.tail });
    let at = cut.head.length;
    cut.chunks.forEach((chunk, j) => {
      if (!chunks.has(chunk.hash)) chunks.set(chunk.hash, { base, from: at, to: at + chunk.text.length, first: j === 0 });
      at += chunk.text.length + 1;
    });
  }
  return { tables, chunks };
}

/** The pack id a writer's own new text is named by until its pack is stored. */
export const NEW_PACK = -1;

/**
 * The spans a table's text is made of against `index`: its chunks found there name the base's packs
 * (with the comma before them where the base has one, so consecutive chunks merge into one span), the
 * rest is new text, named in `NEW_PACK` at its offset in `fresh`.
 */
export function spansAgainst(table: { readonly json: string; readonly columns: readonly Column[] }, index: BaseIndex): { spans: PackSpan[]; fresh: string; cut: ChunkedTable } {
  const spans: PackSpan[] = [];
  const parts: string[] = [];
  let length = 0;
  const addNew = (text: string) => {
    appendSpan(spans, { pack: NEW_PACK, start: length, end: length + text.length });
    parts.push(text);
    length += text.length;
  };
  const addBase = (base: UnpackedTable, from: number, to: number) => {
    for (const span of spansBetween(base, from, to)) appendSpan(spans, span);
  };
  const cut = chunkTable(table);
  const sameHead = index.tables.find((b) => b.head === cut.head);
  if (sameHead) addBase(sameHead, 0, cut.head.length);
  else addNew(cut.head);
  cut.chunks.forEach((chunk, i) => {
    const found = index.chunks.get(chunk.hash);
    if (!found) addNew(i > 0 ? `,${chunk.text}` : chunk.text);
    else if (i === 0 || !found.first) addBase(found.base, i === 0 ? found.from : found.from - 1, found.to);
    else {
      addNew(',');
      addBase(found.base, found.from, found.to);
    }
  });
  const sameTail = index.tables.find((b) => b.tail === cut.tail);
  if (sameTail) addBase(sameTail, sameTail.text.length - cut.tail.length, sameTail.text.length);
  else addNew(cut.tail);
  return { spans, fresh: parts.join(''), cut };
}
