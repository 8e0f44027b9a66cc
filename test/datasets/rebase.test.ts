import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/dialects.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { until } from '../support/until.js';

interface Form {
  key: string;
  tables: Record<string, { columns: { name: string; type: string }[]; rows: unknown[][] }>;
}
interface Scenario {
  id: string;
  tag: string;
  status: string;
  parent_id: string | null;
  input_data_id: string;
  rebased_from: string | null;
  replans: string | null;
  algorithm: { name: string; parameters: { name: string; value: unknown }[] };
}
interface Lineage {
  key: string;
  parent: string | null;
  edits: ({ table: string; rows: number } & Record<string, unknown>)[];
  skipped?: { path: string; message: string; edit: unknown }[];
}

describe.each(DIALECTS)('rebase and re-plan on %s', (dialect) => {
  let t: TestApp;
  let example: Form;
  beforeAll(async () => {
    t = await startTestApp(dialect);
    example = (await api('GET', '/data/example')).json<Form>();
  });
  afterAll(() => t?.close());

  const api = (method: 'GET' | 'POST', url: string, payload?: object, session = 'main') =>
    t.app.inject({ method, url: `/api/v1/sessions/${session}${url}`, ...(payload === undefined ? {} : { payload }) });
  const ok = async <T>(method: 'GET' | 'POST', url: string, payload?: object, status = 200, session = 'main'): Promise<T> => {
    const res = await api(method, url, payload, session);
    expect(res.statusCode, res.body).toBe(status);
    return res.json<T>();
  };
  /** Stores `key` (a new one, or a new version of it) with the example's tables as `change` leaves them. */
  const put = (key: string, change: (rows: Record<string, unknown[][]>) => void, session = 'main') => {
    const rows = Object.fromEntries(Object.entries(example.tables).map(([name, table]) => [name, table.rows.map((r) => [...r])]));
    change(rows);
    const tables = Object.fromEntries(Object.entries(example.tables).map(([name, table]) => [name, { columns: table.columns, rows: rows[name] }]));
    return ok('POST', '/data/from-json', { key, kind: 'master', tables }, 201, session);
  };
  const col = (table: string, column: string) => example.tables[table]!.columns.findIndex((c) => c.name === column);
  const count = (rows: unknown[][], table: string, column: string, value: unknown) => rows.filter((r) => r[col(table, column)] === value).length;
  const lineage = (key: string) => ok<Lineage>('GET', `/data/${encodeURIComponent(key)}/lineage`);
  const scenarios = async () => (await ok<Scenario[]>('GET', '/scenarios')).length;
  const keys = async () => (await ok<{ keys: string[] }>('GET', '/data')).keys;
  const waitComplete = (id: string, session = 'main') =>
    until(`scenario ${id} ends`, async () => {
      const s = await ok<Scenario>('GET', `/scenarios/${id}`, undefined, 200, session);
      return s.status === 'COMPLETE' || s.status === 'FAILED' ? s : undefined;
    });

  const petEdit = { table: 'sku_data', update: { where: { category: 'pet' }, set: { description: 'promo' } } };
  const zoneEdit = { table: 'warehouse_layout', update: { where: { zone: 'A' }, scale: { capacity: 2 } } };
  const lowDelete = { table: 'sku_data', delete: { where: { daily_picks: { lte: 1 } } } };

  it('rebases a two-level what-if tree onto the new master: same edits, row counts from the new data, successors linked', async () => {
    await put('wk', () => {});
    const root = await ok<Scenario>('POST', '/scenarios', { tag: 'as-is', dataset_key: 'wk', algo_name: 'Parameter Matrix', algo_params: { int_param: 7 } }, 201);
    const child = await ok<Scenario>('POST', `/scenarios/${root.id}/branch`, { tag: 'pets', edits: [petEdit, zoneEdit] }, 201);
    const grandchild = await ok<Scenario>('POST', `/scenarios/${child.id}/branch`, { tag: 'pets lean', edits: [lowDelete] }, 201);
    // Week 50: every other pet SKU and every SKU picked at most once are gone.
    let pets = 0;
    await put('wk', (rows) => {
      rows.sku_data = rows.sku_data!.filter((r) => (r[col('sku_data', 'category')] !== 'pet' || pets++ % 2 === 0) && (r[col('sku_data', 'daily_picks')] as number) > 0.5);
    });
    const wk = (await ok<Form>('GET', '/data/wk')).tables;
    const [before, datasetsBefore] = [await scenarios(), (await keys()).length];

    const { scenarios: made } = await ok<{ scenarios: Scenario[] }>('POST', `/scenarios/${root.id}/rebase`, { tree: true }, 201);
    expect(made.map((s) => s.tag)).toEqual(['as-is @v2', 'pets @v2', 'pets lean @v2']);
    expect(made.map((s) => s.rebased_from)).toEqual([root.id, child.id, grandchild.id]);
    expect(made.map((s) => s.parent_id)).toEqual([null, made[0]!.id, made[1]!.id]);
    expect(made.map((s) => s.status)).toEqual(['CREATED', 'CREATED', 'CREATED']);
    expect(made[0]!.input_data_id).toBe('wk');
    expect(made[0]!.algorithm.parameters.find((p) => p.name === 'int_param')?.value).toBe(7);
    expect(await scenarios()).toBe(before + 3);
    expect((await keys()).length).toBe(datasetsBefore + 2);

    const first = await lineage(made[1]!.input_data_id);
    expect(first.key).toBe('pets @v2');
    expect(first.parent).toBe('wk');
    expect(first.edits).toEqual([
      { ...petEdit, rows: count(wk.sku_data!.rows, 'sku_data', 'category', 'pet') },
      { ...zoneEdit, rows: count(wk.warehouse_layout!.rows, 'warehouse_layout', 'zone', 'A') },
    ]);
    const second = await lineage(made[2]!.input_data_id);
    expect(second.parent).toBe('pets @v2');
    const low = wk.sku_data!.rows.filter((r) => (r[col('sku_data', 'daily_picks')] as number) <= 1).length;
    expect(low).toBeGreaterThan(0);
    expect(second.edits).toEqual([{ ...lowDelete, rows: low }]);
    // The old tree stays as it was, as history.
    expect((await lineage('pets')).edits.map((e) => e.rows)).not.toEqual(first.edits.map((e) => e.rows));
    expect((await ok<Scenario>('GET', `/scenarios/${made[2]!.id}`)).rebased_from).toBe(grandchild.id);
    expect((await ok<Scenario>('GET', `/scenarios/${grandchild.id}`)).rebased_from).toBeNull();

    // Onto the first version: keys and tags say it; the data is week 49's.
    const { scenarios: back } = await ok<{ scenarios: Scenario[] }>('POST', `/scenarios/${child.id}/rebase`, { onto: 1 }, 201);
    expect(back.map((s) => s.tag)).toEqual(['pets @v1']);
    expect(back[0]!.parent_id).toBe(root.id);
    expect((await lineage(back[0]!.input_data_id)).edits).toEqual((await lineage('pets')).edits);
  });

  it('lists every conflict at once and stores nothing; on_conflict skip records what it left out', async () => {
    await put('wk3', () => {});
    const root = await ok<Scenario>('POST', '/scenarios', { tag: 'c root', dataset_key: 'wk3', algo_name: 'Instant' }, 201);
    const edits = [
      { table: 'sku_data', update: { where: { category: 'dairy' }, set: { description: 'x' } } },
      { table: 'sku_data', insert: [{ sku: 'SKU-X', category: 'pet', daily_picks: 1 }] },
      zoneEdit,
    ];
    const child = await ok<Scenario>('POST', `/scenarios/${root.id}/branch`, { tag: 'c child', edits }, 201);
    await put('wk3', (rows) => {
      rows.sku_data = rows.sku_data!.filter((r) => r[col('sku_data', 'category')] !== 'dairy');
      const extra = [...rows.sku_data[0]!];
      extra[col('sku_data', 'sku')] = 'SKU-X';
      rows.sku_data.push(extra);
    });
    const [before, datasetsBefore] = [await scenarios(), await keys()];

    const refused = await api('POST', `/scenarios/${root.id}/rebase`, { tree: true });
    expect(refused.statusCode, refused.body).toBe(409);
    const body = refused.json<{ code: string; detail: string; conflicts: { scenario_id: string; tag: string; path: string; message: string }[] }>();
    expect(body.code).toBe('REBASE_CONFLICT');
    expect(body.conflicts.map((c) => [c.scenario_id, c.tag, c.path])).toEqual([
      [child.id, 'c child', 'edits[0]'],
      [child.id, 'c child', 'edits[1].insert[0]'],
    ]);
    expect(body.conflicts[0]!.message).toContain('matches none');
    expect(body.conflicts[1]!.message).toContain('SKU-X');
    expect(await scenarios()).toBe(before);
    expect(await keys()).toEqual(datasetsBefore);

    const { scenarios: made } = await ok<{ scenarios: Scenario[] }>('POST', `/scenarios/${root.id}/rebase`, { tree: true, on_conflict: 'skip' }, 201);
    expect(made.map((s) => s.tag)).toEqual(['c root @v2', 'c child @v2']);
    const skipped = await lineage(made[1]!.input_data_id);
    expect(skipped.edits).toEqual([{ ...zoneEdit, rows: 80 }]);
    expect(skipped.skipped?.map((s) => [s.path, s.edit])).toEqual([
      ['edits[0]', edits[0]],
      ['edits[1].insert[0]', edits[1]],
    ]);
  });

  it('re-plans the published plan on the newest data and runs it to COMPLETE', async () => {
    const created = await t.app.inject({ method: 'POST', url: '/api/v1/sessions', payload: { display_name: `replan ${dialect}` } });
    expect(created.statusCode, created.body).toBe(201);
    const session = encodeURIComponent(`replan ${dialect}`);
    const refused = await api('POST', '/plan/replan', {}, session);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'PLAN_NOT_PUBLISHED' });

    await put('week', () => {}, session);
    const planned = await ok<Scenario>('POST', '/scenarios', { tag: 'plan', dataset_key: 'week', algo_name: 'Instant' }, 201, session);
    const whatIf = await ok<Scenario>('POST', `/scenarios/${planned.id}/branch`, { tag: 'plan pets', edits: [petEdit], run: true }, 201, session);
    expect((await waitComplete(whatIf.id, session)).status).toBe('COMPLETE');
    await ok('POST', `/scenarios/${whatIf.id}/publish`, { note: 'week 49' }, 201, session);
    await put('week', (rows) => void rows.sku_data!.pop(), session);

    const successor = await ok<Scenario>('POST', '/plan/replan', {}, 201, session);
    expect(successor).toMatchObject({ tag: 'plan pets @v2', replans: whatIf.id, rebased_from: whatIf.id, parent_id: planned.id });
    expect((await waitComplete(successor.id, session)).status).toBe('COMPLETE');
    expect((await ok<Scenario>('GET', `/scenarios/${successor.id}`, undefined, 200, session)).replans).toBe(whatIf.id);
  });

  it('refuses with registry codes: an unknown scenario, an unknown version, a bad body', async () => {
    const root = await ok<Scenario>('POST', '/scenarios', { tag: 'r root', dataset_key: 'example', algo_name: 'Instant' }, 201);
    expect((await api('POST', '/scenarios/nope/rebase', {})).json()).toMatchObject({ code: 'SCENARIO_NOT_FOUND' });
    const unknown = await api('POST', `/scenarios/${root.id}/rebase`, { onto: 99 });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toMatchObject({ code: 'DATASET_VERSION_NOT_FOUND' });
    const bad = await api('POST', `/scenarios/${root.id}/rebase`, { on_conflict: 'maybe' });
    expect(bad.statusCode).toBe(422);
    expect(bad.json()).toMatchObject({ code: 'INVALID_REQUEST' });
  });
});
