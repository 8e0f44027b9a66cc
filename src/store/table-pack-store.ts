import type { Kysely } from 'kysely';
import type { Column } from '../domain/dataset-model.js';
import { chunks as pieces } from './chunks.js';
import type { Database } from './database.js';
import { dialectAdapterOf } from './dialect.js';
import { NEW_PACK, readBases, rememberCut, spansAgainst } from './table-pack-base.js';
import { manifestOf, type PackSpan } from './table-pack-manifest.js';
import { decodeManifest, encodeManifest } from './table-pack-manifest-text.js';

/**
 * Writes and frees the packs tables' texts are stored in (`table_packs`). Safety against concurrent
 * writers, as for whole contents (see `putContents` in `src/store/table-contents.ts`): a writer holds a
 * lock on every pack it names until it commits (`readBases` locks them `for share`; its new pack is its
 * own until then), and the collector deletes only packs it could lock itself, after looking again for
 * users once it holds them. SQLite runs one write transaction at a time, so there the collector cannot
 * meet a writer.
 */

/**
 * Stores the text of the content `hash` (its row is there already): against the base contents
 * `baseHashes` when there are any (their text found in them is named, the rest goes into one new pack),
 * else whole, as one pack named by one segment (a first upload costs what a whole-table row did).
 */
export async function writePacked(trx: Kysely<Database>, hash: string, table: { readonly json: string; readonly columns: readonly Column[] }, baseHashes: readonly string[]): Promise<void> {
  const index = baseHashes.length > 0 ? await readBases(trx, baseHashes) : undefined;
  const against = index && index.tables.length > 0 ? spansAgainst(table, index) : undefined;
  const { spans, fresh } = against ?? { spans: [{ pack: NEW_PACK, start: 0, end: table.json.length }], fresh: table.json };
  // The next table written against this one (a derive of it, a rebase's child) finds it cut already.
  if (against) rememberCut(hash, against.cut);
  const lengths = new Map<number, number>();
  for (const base of index?.tables ?? []) for (const [id, length] of base.lengths) lengths.set(id, length);
  let named: PackSpan[] = spans;
  if (fresh.length > 0) {
    const { id } = await trx.insertInto('table_packs').values({ text: fresh }).returning('id').executeTakeFirstOrThrow();
    const pack = Number(id);
    lengths.set(pack, fresh.length);
    named = spans.map((s) => (s.pack === NEW_PACK ? { ...s, pack } : s));
  }
  const manifest = manifestOf(named, (id) => lengths.get(id)!);
  await trx.updateTable('table_contents').set({ manifest: encodeManifest(manifest) }).where('hash', '=', hash).execute();
  if (manifest.packs.length > 0) await trx.insertInto('table_content_packs').values(manifest.packs.map(([id]) => ({ hash, pack_id: id }))).execute();
}

/** The pack ids a stored manifest names. */
export function packsOf(manifest: string): number[] {
  return decodeManifest(manifest).packs.map(([id]) => id);
}

/**
 * Deletes those of `candidates` (packs of contents just deleted) that no remaining content names;
 * returns how many went. A pack a concurrent writer is naming is locked by it and skipped: at worst it
 * stays unused.
 */
export async function dropUnusedPacks(trx: Kysely<Database>, candidates: readonly number[]): Promise<number> {
  const unique = [...new Set(candidates)];
  const adapter = dialectAdapterOf(trx);
  const unused = (ids: readonly number[]) =>
    trx
      .selectFrom('table_packs as p')
      .select('p.id')
      .where('p.id', 'in', ids)
      .where((eb) => eb.not(eb.exists(eb.selectFrom('table_content_packs as l').select('l.pack_id').whereRef('l.pack_id', '=', 'p.id'))));
  let deleted = 0;
  for (const batch of pieces(unique)) {
    let ids = (await adapter.claimingRows(unused(batch)).execute()).map((r) => Number(r.id));
    // Locked first, then looked at again in a statement of its own (a newer snapshot under read
    // committed): a writer that named one of them and committed in between is seen now, and one that
    // has not committed yet holds its lock, so the pack was skipped.
    if (!adapter.singleWriter && ids.length > 0) ids = (await unused(ids).execute()).map((r) => Number(r.id));
    if (ids.length === 0) continue;
    const result = await trx.deleteFrom('table_packs').where('id', 'in', ids).executeTakeFirst();
    deleted += Number(result.numDeletedRows);
  }
  return deleted;
}
