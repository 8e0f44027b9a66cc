import { randomUUID } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { Database } from '../../src/store/database.js';
import type { Store } from '../../src/store/store.js';
import { contentsOfDatasets, dropUnusedContents, linkTables, putContents, storedTablesOfJson, type TableBase } from '../../src/store/table-contents.js';
import { decodeManifest } from '../../src/store/table-pack-manifest-text.js';
import { DIALECTS } from '../support/dialects.js';
import { useTestStore } from '../support/test-store.js';

const COLUMNS = [
  { name: 'sku', type: 'string' },
  { name: 'description', type: 'string' },
  { name: 'picks', type: 'float' },
];
const skuRows = (n: number) => Array.from({ length: n }, (_, i) => [`SKU-${String(i).padStart(6, '0')}`, `item ${i} of the catalogue`, i / 4]);
const table = (rows: unknown[][]) => ({ columns: COLUMNS, rows });

describe.each(DIALECTS)('tables stored in packs on %s', (dialect) => {
  const store = useTestStore(dialect);
  const count = async (s: Store, from: 'table_packs' | 'table_contents') =>
    Number((await sql<{ n: number | string }>`select count(*) as n from ${sql.table(from)}`.execute(s.db)).rows[0]!.n);
  /** Packs and the characters of their texts in the store. */
  const packs = async () => {
    const { rows } = await sql<{ n: number | string; chars: number | string | null }>`select count(*) as n, sum(length(text)) as chars from table_packs`.execute(store().db);
    return { n: Number(rows[0]!.n), chars: Number(rows[0]!.chars ?? 0) };
  };
  const session = async () => {
    const id = randomUUID();
    await store().sessions.insert({ id, displayName: id, createdAt: new Date().toISOString() });
    return id;
  };
  const put = (sessionId: string, key: string, tablesJson: string, parentKey: string | null = null) =>
    store().datasets.put({ sessionId, key, kind: parentKey ? 'derived' : 'master', createdAt: new Date().toISOString(), version: randomUUID(), tablesJson, parentKey });
  const text = async (sessionId: string, key: string) => (await store().datasets.get(sessionId, key))!.tablesJson;
  const manifestOf = async (sessionId: string, key: string, name: string) => {
    const ref = (await store().datasets.tableRefs(sessionId, key))!.tables.find((t) => t.name === name)!;
    const row = await store().db.selectFrom('table_contents').select('manifest').where('hash', '=', ref.hash).executeTakeFirstOrThrow();
    return decodeManifest(row.manifest);
  };

  it('reads back every table exactly as written, first uploads and versions: empty, one row, unicode, large and tricky strings, another key order', async () => {
    const sid = await session();
    const large = 'x'.repeat(300_000);
    const tricky = ['"],["', '\\', '\\"', '{"a":[1,2]}', 'zeilen, mit ] und [', '\u0000\u001f', 'ünïcødé 日本語 🚚👩‍👩‍👧', '\u2028\u2029'];
    const tablesOf = (edit: (s: string) => string) =>
      JSON.stringify({
        empty: { columns: [], rows: [] },
        none: table([]),
        one: table([['SKU-1', edit('only'), 1.5]]),
        unicode: table([...tricky.map((s, i) => [s, `${s}${s}`, i]), ...tricky.map((s, i) => [`${s}🚚${i}`, edit(s), i])]),
        big: table([['L', large, 0], ...skuRows(50).map((r, i) => (i % 7 === 3 ? [r[0], edit(String(r[1])), r[2]] : r)), ['L2', `${large}ü`, 1]]),
        reordered: { rows: [['a', 'b', 1]], columns: COLUMNS },
        nested: { columns: [{ name: 'v', type: 'string' }], rows: [['[1,[2]]'], ['{"rows":[]}']], extra: { rows: [[1]] } },
      });
    const tables = tablesOf((s) => s);
    await put(sid, 'all', tables);
    expect(await text(sid, 'all')).toBe(tables);
    const refs = (await store().datasets.tableRefs(sid, 'all'))!;
    for (const ref of refs.tables) {
      expect(await store().datasets.content(ref.hash)).toBe(JSON.stringify(JSON.parse(tables)[ref.name]));
    }
    expect(refs.tables.map((t) => [t.name, t.rows])).toEqual([['empty', 0], ['none', 0], ['one', 1], ['unicode', 2 * tricky.length], ['big', 52], ['reordered', 1], ['nested', 2]]);
    // A version that changes rows among astral characters, `\u2028` and large strings names most of its text in the first version's packs.
    const version = tablesOf((s) => `${s} ✏️ edited`);
    const before = await packs();
    await put(sid, 'all', version);
    expect(await text(sid, 'all')).toBe(version);
    expect((await store().datasets.getVersion(sid, 'all', 1))!.tablesJson).toBe(tables);
    expect((await packs()).chars - before.chars).toBeLessThan(10_000);
    expect((await manifestOf(sid, 'all', 'big')).packs.length).toBe(2);
  });

  it('stores a first upload as one pack named whole, shares identical tables by hash, and a version with a row more in a small pack', async () => {
    const sid = await session();
    const before = await packs();
    const skus = JSON.stringify(table(skuRows(2_000)));
    await put(sid, 'first', JSON.stringify({ skus: table(skuRows(2_000)), same: table(skuRows(2_000)) }));
    // Two tables of one content: one content, one pack, its whole text one segment.
    expect((await packs()).n - before.n).toBe(1);
    expect((await packs()).chars - before.chars).toBe(skus.length);
    expect(await manifestOf(sid, 'first', 'skus')).toEqual({ packs: [[expect.any(Number), skus.length]], segments: [[0, 0, skus.length]] });
    // Another dataset shares the content by hash; a new version of `first` with one more row at its end stores about that row.
    await put(sid, 'second', JSON.stringify({ other: table(skuRows(2_000)) }));
    expect((await packs()).n - before.n).toBe(1);
    await put(sid, 'first', JSON.stringify({ skus: table(skuRows(2_001)), same: table(skuRows(2_000)) }));
    const after = await packs();
    expect(after.n - before.n).toBe(2);
    expect(after.chars - before.chars - skus.length).toBeLessThan(200);
    expect(JSON.parse(await text(sid, 'first')).skus.rows).toEqual(skuRows(2_001));
    // Without a base (another key, no parent) a table is stored whole again: nothing is looked up across the store.
    await put(sid, 'third', JSON.stringify({ skus: table(skuRows(2_001)) }));
    expect((await packs()).n - after.n).toBe(0);
    await put(sid, 'fourth', JSON.stringify({ skus: table(skuRows(1_999)) }));
    expect((await packs()).chars - after.chars).toBe(JSON.stringify(table(skuRows(1_999))).length);
  });

  it('a new version that changes 1 % of rows, scattered, or inserts a row, writes a pack of about what changed', async () => {
    const sid = await session();
    const rows = skuRows(5_000);
    const first = JSON.stringify({ skus: table(rows) });
    await put(sid, 'master', first);
    const before = await packs();
    const changed = rows.map((r, i) => (i % 100 === 37 ? [r[0], r[1], 1_000 + i] : r));
    await put(sid, 'master', JSON.stringify({ skus: table(changed) }));
    const written = (await packs()).chars - before.chars;
    // 50 rows changed: each rewrites the chunk it is in (about two rows), never the whole table.
    expect(written).toBeGreaterThan(0.01 * first.length);
    expect(written).toBeLessThan(0.05 * first.length);
    // The unchanged stretches between them are one segment each.
    expect((await manifestOf(sid, 'master', 'skus')).segments.length).toBeLessThanOrEqual(2 * 50 + 3);
    const inserted = [...changed.slice(0, 10), ['NEW', 'a row in front', 0], ...changed.slice(10)];
    const beforeInsert = await packs();
    await put(sid, 'master', JSON.stringify({ skus: table(inserted) }));
    expect((await packs()).chars - beforeInsert.chars).toBeLessThan(400);
    expect(JSON.parse(await text(sid, 'master')).skus.rows).toEqual(inserted);
    expect(JSON.parse((await store().datasets.getVersion(sid, 'master', 2))!.tablesJson).skus.rows).toEqual(changed);
    expect((await store().datasets.getVersion(sid, 'master', 1))!.tablesJson).toBe(first);
  });

  it('a derived dataset and a dataset written with its parent store only what differs from the parent', async () => {
    const sid = await session();
    const rows = skuRows(6_000).map((r) => [`${r[0]}-${sid}`, r[1], r[2]]);
    await put(sid, 'week49', JSON.stringify({ skus: table(rows), other: table(rows.slice(0, 100)) }));
    const before = await packs();
    const edited = rows.map((r, i) => (i % 300 === 5 ? [r[0], 'what if', r[2]] : r));
    const replaced = storedTablesOfJson(JSON.stringify({ skus: table(edited) }));
    const target = { key: 'what-if', kind: 'derived' as const, createdAt: new Date().toISOString(), version: randomUUID() };
    expect(await store().datasets.derive(sid, 'week49', target, { parentKey: 'week49', editsJson: '[]' }, replaced)).toBe('derived');
    const derived = (await packs()).chars - before.chars;
    expect(derived).toBeGreaterThan(0);
    expect(derived).toBeLessThan(0.05 * JSON.stringify(table(rows)).length);
    expect(await text(sid, 'what-if')).toBe(JSON.stringify({ skus: table(edited), other: table(rows.slice(0, 100)) }));
    const middle = await packs();
    await put(sid, 'by parent', JSON.stringify({ skus: table(edited.slice(1)) }), 'week49');
    expect((await packs()).chars - middle.chars).toBeLessThan(0.05 * JSON.stringify(table(rows)).length);
    expect(JSON.parse(await text(sid, 'by parent')).skus.rows).toEqual(edited.slice(1));
  });

  // Written and deleted through the contents' own functions, as a dataset write and delete use them: no
  // dataset version (migration 0027) names these tables, so only the datasets here keep them.
  const writeTables = async (db: Kysely<Database>, sessionId: string, key: string, tablesJson: string, bases: TableBase[] = []) => {
    const tables = storedTablesOfJson(tablesJson);
    const hashes = await putContents(db, tables, bases);
    const { seq } = await db
      .insertInto('datasets')
      .values({ session_id: sessionId, key, kind: 'master', created_at: new Date().toISOString(), version: randomUUID() })
      .returning('seq')
      .executeTakeFirstOrThrow();
    await linkTables(db, seq, tables, hashes);
  };
  const deleteTables = (sessionId: string, key: string) =>
    store().db.transaction().execute(async (trx) => {
      const rows = await trx.selectFrom('datasets').select('seq').where('session_id', '=', sessionId).where('key', '=', key).execute();
      const named = await contentsOfDatasets(trx, rows.map((r) => r.seq));
      await trx.deleteFrom('datasets').where('session_id', '=', sessionId).where('key', '=', key).execute();
      return dropUnusedContents(trx, named);
    });
  const packsNamedBy = async (sessionId: string, key: string) => {
    const refs = (await store().datasets.tableRefs(sessionId, key))!;
    const rows = await store().db.selectFrom('table_content_packs').select('pack_id').distinct().where('hash', 'in', refs.tables.map((t) => t.hash)).execute();
    return rows.length;
  };
  const base = (sessionId: string, key: string): TableBase[] => [{ dataset: { sessionId, key } }];

  it('collects the packs no table names any more and keeps those another table names', async () => {
    const sid = await session();
    const packsBefore = await count(store(), 'table_packs');
    const contentsBefore = await count(store(), 'table_contents');
    const rows = skuRows(3_000).map((r) => [`${r[0]}-${sid}`, r[1], r[2]]);
    const a = JSON.stringify({ skus: table(rows) });
    const b = JSON.stringify({ skus: table(rows.map((r, i) => (i % 10 === 0 ? [r[0], 'changed', r[2]] : r))), same: table(rows) });
    await store().db.transaction().execute((trx) => writeTables(trx, sid, 'a', a));
    expect((await count(store(), 'table_packs')) - packsBefore).toBe(1);
    await store().db.transaction().execute((trx) => writeTables(trx, sid, 'b', b, base(sid, 'a')));
    // `b`'s edited table: a pack of its own, and stretches of `a`'s.
    expect((await count(store(), 'table_packs')) - packsBefore).toBe(2);
    expect(await packsNamedBy(sid, 'b')).toBe(2);
    // `b` names `a`'s table whole as well: deleting `a` frees no content and no pack.
    expect(await deleteTables(sid, 'a')).toBe(0);
    expect((await count(store(), 'table_packs')) - packsBefore).toBe(2);
    await store().db.transaction().execute((trx) => writeTables(trx, sid, 'c', JSON.stringify({ skus: table(rows) })));
    // `b` goes: its edited table and the pack only it named go, `a`'s pack (which `c`'s table is) stays.
    expect(await deleteTables(sid, 'b')).toBe(1);
    expect((await count(store(), 'table_packs')) - packsBefore).toBe(1);
    expect(await text(sid, 'c')).toBe(JSON.stringify({ skus: table(rows) }));
    // `d`, a version of `c`'s table, names `c`'s pack: deleting `c` drops its content but keeps the pack.
    const d = JSON.stringify({ skus: table([...rows.slice(0, 1_500), ['one more', 'row', 0], ...rows.slice(1_500)]) });
    await store().db.transaction().execute((trx) => writeTables(trx, sid, 'd', d, base(sid, 'c')));
    expect(await deleteTables(sid, 'c')).toBe(1);
    expect((await count(store(), 'table_packs')) - packsBefore).toBe(2);
    expect(await text(sid, 'd')).toBe(d);
    expect(await deleteTables(sid, 'd')).toBe(1);
    expect(await count(store(), 'table_packs')).toBe(packsBefore);
    expect(await count(store(), 'table_contents')).toBe(contentsBefore);
  });

  // SQLite runs one write transaction at a time: there a collection cannot overlap a write.
  it.runIf(dialect === 'postgres')('a collection beside an uncommitted write keeps the packs that write names', async () => {
    const sid = await session();
    const rows = skuRows(2_000).map((r) => [`${r[0]}-${sid}`, r[1], r[2]]);
    const old = JSON.stringify({ skus: table(rows) });
    const next = JSON.stringify({ skus: table([...rows.slice(0, 1_000), ['one more', 'row', 0], ...rows.slice(1_000)]) });
    const packsBefore = await count(store(), 'table_packs');
    await store().db.transaction().execute((trx) => writeTables(trx, sid, 'old', old));
    let written!: () => void;
    const isWritten = new Promise<void>((resolve) => (written = resolve));
    let commit!: () => void;
    const mayCommit = new Promise<void>((resolve) => (commit = resolve));
    const writer = store().db.transaction().execute(async (trx) => {
      await writeTables(trx, sid, 'next', next, base(sid, 'old'));
      written();
      await mayCommit;
    });
    await isWritten;
    // The only dataset naming `old` goes while `next`, which names all of `old`'s pack but a row, is not
    // committed: `old`'s content goes, its pack stays.
    expect(await deleteTables(sid, 'old')).toBe(1);
    commit();
    await writer;
    expect(await text(sid, 'next')).toBe(next);
    expect(await packsNamedBy(sid, 'next')).toBe(2);
    expect((await count(store(), 'table_packs')) - packsBefore).toBe(2);
    // Once `next` goes too, both packs go.
    expect(await deleteTables(sid, 'next')).toBe(1);
    expect(await count(store(), 'table_packs')).toBe(packsBefore);
  });
});
