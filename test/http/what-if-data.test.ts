import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/dialects.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

describe.each(DIALECTS)('derive with data edits on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(dialect);
  });
  afterAll(() => t?.close());

  const api = (method: 'GET' | 'POST', url: string, payload?: object) =>
    t.app.inject({ method, url: `/api/v1/sessions/main${url}`, ...(payload === undefined ? {} : { payload }) });
  const keys = async () => (await api('GET', '/data')).json<{ keys: string[] }>().keys;
  const table = (form: { tables: Record<string, { columns: { name: string }[]; rows: unknown[][] }> }, name: string) => {
    const { columns, rows } = form.tables[name]!;
    return rows.map((row) => Object.fromEntries(columns.map((c, i) => [c.name, row[i]])));
  };

  it('derives with edits: answers each edit with its rows, flags one that matched nothing, and stores parent and edits', async () => {
    const edits = [
      { table: 'warehouse_layout', update: { where: { zone: 'A' }, scale: { capacity: 2 } } },
      { table: 'sku_data', update: { where: { category: ['pet', 'dairy'] }, set: { description: 'edited' } } },
      { table: 'sku_data', insert: [{ sku: 'SKU-NEW', category: 'pet', daily_picks: 12.5 }] },
      { table: 'sku_data', delete: { where: { daily_picks: { lte: 1 } } } },
      { table: 'warehouse_layout', update: { where: { zone: 'Z' }, set: { capacity: 0 } } },
    ];
    const res = await api('POST', '/data/example/derive', { new_key: 'what if', edits });
    expect(res.statusCode, res.body).toBe(201);
    const answer = res.json();
    expect(answer.keys).toEqual(['example', 'what if']);
    const original = (await api('GET', '/data/example')).json();
    const skus = table(original, 'sku_data');
    const layout = table(original, 'warehouse_layout');
    expect(answer.edits.map((e: { rows: number }) => e.rows)).toEqual([
      layout.filter((l) => l.zone === 'A').length,
      skus.filter((s) => s.category === 'pet' || s.category === 'dairy').length,
      1,
      skus.filter((s) => (s.daily_picks as number) <= 1).length,
      0,
    ]);
    expect(answer.edits[0]).toEqual({ ...edits[0], rows: 80 });
    expect(answer.warnings).toEqual([{ path: 'edits[4]', message: "matches no row of table 'warehouse_layout': stored with rows 0, it changed nothing" }]);

    const derived = (await api('GET', '/data/what%20if')).json();
    expect(derived).toMatchObject({ key: 'what if', kind: 'derived', parent: 'example', edits: answer.edits });
    const newLayout = table(derived, 'warehouse_layout');
    expect(newLayout.map((l) => l.capacity)).toEqual(layout.map((l) => (l.zone === 'A' ? (l.capacity as number) * 2 : l.capacity)));
    const newSkus = table(derived, 'sku_data');
    expect(newSkus.at(-1)).toEqual({ sku: 'SKU-NEW', description: null, category: 'pet', daily_picks: 12.5, current_location: null });
    // Edits apply in order: the delete removed some of the rows the update had changed.
    const kept = (s: Record<string, unknown>) => (s.daily_picks as number) > 1;
    expect(newSkus.filter((s) => s.description === 'edited').length).toBe(skus.filter((s) => kept(s) && (s.category === 'pet' || s.category === 'dairy')).length);
    expect(newSkus.length).toBe(skus.length + 1 - answer.edits[3].rows);
    // The parent is unchanged.
    expect((await api('GET', '/data/example')).json()).toEqual(original);
  });

  it('reads a dataset lineage cheaply, and lists the parent with each dataset', async () => {
    const lineage = (await api('GET', '/data/what%20if/lineage')).json();
    expect(lineage.key).toBe('what if');
    expect(lineage.parent).toBe('example');
    expect(lineage.edits).toHaveLength(5);
    expect((await api('GET', '/data/example/lineage')).json()).toEqual({ key: 'example', parent: null, edits: [], version: 1, parent_version: null, stale: null });
    expect((await api('GET', '/data/nope/lineage')).json().code).toBe('DATASET_NOT_FOUND');
    const page = (await api('GET', '/data?limit=10')).json();
    expect(page.items.map((i: { key: string; parent: string | null }) => [i.key, i.parent])).toEqual([
      ['example', null],
      ['what if', 'example'],
    ]);
  });

  it('keeps the plain derive answer and the JSON form of a master dataset as they were', async () => {
    const res = await api('POST', '/data/example/derive', { new_key: 'plain' });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({ keys: ['example', 'what if', 'plain'] });
    expect(Object.keys((await api('GET', '/data/example')).json())).toEqual(['key', 'kind', 'created_at', 'tables']);
    expect((await api('GET', '/data/plain/lineage')).json()).toEqual({ key: 'plain', parent: 'example', edits: [], version: 1, parent_version: 1, stale: null });
  });

  it('refuses wrong edits with 422 DATASET_EDITS_INVALID naming every problem, and stores nothing', async () => {
    const before = await keys();
    const res = await api('POST', '/data/example/derive', {
      new_key: 'refused',
      edits: [
        { table: 'sku_data', update: { where: { category: 'pet' }, set: { daily_picks: 'many' } } },
        { table: 'nope', delete: { where: {} } },
        { table: 'warehouse_layout', update: { where: { zone: 'A' }, scale: { zone: 2 } } },
        { table: 'sku_data', insert: [{ sku: 'SKU-000001', category: 'pet', daily_picks: 1 }] },
      ],
    });
    expect(res.statusCode).toBe(422);
    const body = res.json();
    expect(body.code).toBe('DATASET_EDITS_INVALID');
    expect(body.errors.map((e: { path: string }) => e.path)).toEqual(['edits[0].update.set.daily_picks', 'edits[1].table', 'edits[2].update.scale.zone']);
    expect(body.detail).toContain('edits[0].update.set.daily_picks');
    // Problems only the rows show are reported once the edits fit the tables: all of them at once too.
    const keysRes = await api('POST', '/data/example/derive', {
      new_key: 'refused',
      edits: [
        { table: 'sku_data', insert: [{ sku: 'SKU-000001', category: 'pet', daily_picks: 1 }] },
        { table: 'warehouse_layout', update: { where: { location: 'A-01-001-1' }, set: { location: 'A-01-001-2' } } },
      ],
    });
    expect(keysRes.statusCode).toBe(422);
    expect(keysRes.json().errors.map((e: { path: string }) => e.path)).toEqual(['edits[0].insert[0]', 'edits[1].update']);
    expect(await keys()).toEqual(before);
    expect((await api('GET', '/data/refused/lineage')).statusCode).toBe(404);
  });

  it('answers 422 for edits that are not a list and 409 for a taken key, storing nothing', async () => {
    const before = await keys();
    const notList = await api('POST', '/data/example/derive', { new_key: 'x', edits: { table: 'sku_data' } });
    expect([notList.statusCode, notList.json().code]).toEqual([422, 'INVALID_REQUEST']);
    const taken = await api('POST', '/data/example/derive', { new_key: 'plain', edits: [{ table: 'sku_data', delete: { where: {} } }] });
    expect([taken.statusCode, taken.json().code]).toEqual([409, 'DATASET_KEY_TAKEN']);
    expect(await keys()).toEqual(before);
  });

  it('copies a session with its derived datasets, their lineage and tables', async () => {
    const copy = await t.app.inject({ method: 'POST', url: '/api/v1/sessions/main/copy', payload: { new_display_name: 'what-if copy' } });
    expect(copy.statusCode).toBe(201);
    const original = (await api('GET', '/data/what%20if')).json();
    const copied = (await t.app.inject({ url: '/api/v1/sessions/what-if%20copy/data/what%20if' })).json();
    expect(copied).toEqual(original);
  });
});
