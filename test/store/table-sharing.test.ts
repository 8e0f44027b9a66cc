import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { deriveDataset } from '../../src/datasets/derive.js';
import { defineDomain } from '../../src/domain/define.js';
import { DomainRegistry } from '../../src/domain/registry.js';
import type { Store } from '../../src/store/store.js';
import { DIALECTS } from '../support/dialects.js';
import { useTestStore } from '../support/test-store.js';

const domain = new DomainRegistry(defineDomain({ name: 'sharing', schemas: {}, algorithms: [], kpis: [] }));

const big = (n: number) => ({ columns: [{ name: 'id', type: 'integer' }, { name: 'v', type: 'float' }], rows: Array.from({ length: n }, (_, i) => [i, i / 2]) });
const small = { columns: [{ name: 'zone', type: 'string' }, { name: 'factor', type: 'float' }], rows: [['A', 1], ['B', 2]] };
const TABLES = JSON.stringify({ big: big(1000), small });

describe.each(DIALECTS)('table contents shared by content on %s', (dialect) => {
  const store = useTestStore(dialect);
  const count = async (s: Store) => Number((await sql<{ n: number | string }>`select count(*) as n from table_contents`.execute(s.db)).rows[0]!.n);
  const session = async () => {
    const id = randomUUID();
    await store().sessions.insert({ id, displayName: id, createdAt: new Date().toISOString() });
    return id;
  };
  const put = (sessionId: string, key: string, tablesJson = TABLES) =>
    store().datasets.put({ sessionId, key, kind: 'master', createdAt: new Date().toISOString(), version: randomUUID(), tablesJson });

  it('stores identical tables once, frees a content only when nothing names it', async () => {
    const sid = await session();
    const before = await count(store());
    await put(sid, 'a');
    expect(await count(store())).toBe(before + 2);
    // A re-upload of the same data under another key, and under the same key, adds nothing.
    await put(sid, 'b');
    await put(sid, 'a');
    expect(await count(store())).toBe(before + 2);
    // A plain derive and an edit of the small table: the big table is still stored once.
    await deriveDataset(store(), domain, sid, 'a', { newKey: 'copy' });
    expect(await count(store())).toBe(before + 2);
    const derived = await deriveDataset(store(), domain, sid, 'a', { newKey: 'edited', edits: [{ table: 'small', update: { where: { zone: 'A' }, scale: { factor: 1.5 } } }] });
    expect(derived.edits).toEqual([{ table: 'small', update: { where: { zone: 'A' }, scale: { factor: 1.5 } }, rows: 1 }]);
    expect(await count(store())).toBe(before + 3);
    // Deleting datasets that share contents frees nothing until the last one naming a content goes.
    expect(await store().datasets.delete(sid, 'a')).toBe(true);
    expect(await store().datasets.deleteUnreferenced(sid, 'b')).toBe('deleted');
    expect(await count(store())).toBe(before + 3);
    // The last dataset naming the first small table goes: only it is freed.
    expect(await store().datasets.delete(sid, 'copy')).toBe(true);
    expect(await count(store())).toBe(before + 2);
    expect(await store().datasets.delete(sid, 'edited')).toBe(true);
    expect(await count(store())).toBe(before);
  });

  it('replacing a dataset keeps the replaced tables as a version; pruning it frees those nothing else names', async () => {
    const sid = await session();
    const before = await count(store());
    await put(sid, 'r');
    await put(sid, 'r', JSON.stringify({ small }));
    // Version 1 still names its tables (docs/api/cycles.md): nothing is freed by the replacement.
    expect(await count(store())).toBe(before + 2);
    expect(JSON.parse((await store().datasets.get(sid, 'r'))!.tablesJson)).toEqual({ small });
    expect(await store().datasetVersions.prune(sid, 'r', 1)).toEqual([1]);
    expect(await count(store())).toBe(before + 1);
    await store().datasets.delete(sid, 'r');
    expect(await count(store())).toBe(before);
  });

  it('a session copy adds no content, and deleting either session keeps what the other names', async () => {
    const from = await session();
    const to = await session();
    const before = await count(store());
    await put(from, 'x');
    await deriveDataset(store(), domain, from, 'x', { newKey: 'y', edits: [{ table: 'small', delete: { where: { zone: 'B' } } }] });
    expect(await count(store())).toBe(before + 3);
    await store().db.transaction().execute((trx) => store().datasets.copySession(from, to, trx));
    expect(await count(store())).toBe(before + 3);
    expect(await store().datasets.listKeys(to)).toEqual(['x', 'y']);
    expect((await store().datasets.get(to, 'y'))!.tablesJson).toBe((await store().datasets.get(from, 'y'))!.tablesJson);
    expect(await store().datasets.getLineage(to, 'y')).toEqual(await store().datasets.getLineage(from, 'y'));
    expect(await store().sessions.delete(from)).toBe(true);
    expect(await count(store())).toBe(before + 3);
    expect(JSON.parse((await store().datasets.get(to, 'x'))!.tablesJson)).toEqual(JSON.parse(TABLES));
    expect(await store().sessions.delete(to)).toBe(true);
    expect(await count(store())).toBe(before);
  });

  it('serves a dataset with its tables in their stored order', async () => {
    const sid = await session();
    const text = JSON.stringify({ z: small, a: big(3), m: { columns: [], rows: [] } });
    await put(sid, 'ordered', text);
    expect((await store().datasets.get(sid, 'ordered'))!.tablesJson).toBe(text);
    await deriveDataset(store(), domain, sid, 'ordered', { newKey: 'ordered 2', edits: [{ table: 'a', delete: { where: { id: 0 } } }] });
    expect(Object.keys(JSON.parse((await store().datasets.get(sid, 'ordered 2'))!.tablesJson))).toEqual(['z', 'a', 'm']);
  });
});
