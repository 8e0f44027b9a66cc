import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { VIEWS_DOMAIN } from '../fixtures/test-domain-path.js';
import { injectSender, ScenarioClient } from '../fixtures/scenario-client.js';
import { DIALECTS } from '../support/dialects.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

interface TableSpec {
  columns: { name: string; label: string; unit: string | null; format: string | null; type: string }[];
  rows: (string | number | boolean | null)[][];
  total: number;
  next_cursor: string | null;
  sort: { column: string; descending: boolean } | null;
}

const ITEMS = { key: 'items', tables: { items: { columns: [{ name: 'name', type: 'string' }, { name: 'weight', type: 'float' }], rows: [['a', 1.5], ['b', 2]] } } };

// `workers: 0`: no algorithm threads in this process's pool, and views are still drawn (on the view pool).
describe.each(DIALECTS)('view routes on %s', (dialect) => {
  let t: TestApp;
  let main: ScenarioClient;
  const get = (path: string) => t.app.inject({ method: 'GET', url: `/api/v1/sessions/main${path}` });
  let done: string;

  beforeAll(async () => {
    t = await startTestApp(dialect, { domain: VIEWS_DOMAIN });
    main = new ScenarioClient(injectSender(t.app), 'main');
    const stored = await t.app.inject({ method: 'POST', url: '/api/v1/sessions/main/data/from-json', headers: { 'content-type': 'application/json' }, payload: ITEMS });
    expect(stored.statusCode, stored.body).toBe(201);
    const scenario = await main.started({ tag: 'rows 25', algo_name: 'Rows', dataset_key: 'items', algo_params: { count: 25 } });
    expect((await main.waitFor(scenario.id)).status).toBe('COMPLETE');
    done = scenario.id;
  });
  afterAll(() => t?.close());

  it('lists the result views of the algorithm, whatever the status; 404 for an unknown scenario', async () => {
    const created = await main.created({ tag: 'not run', algo_name: 'Rows', dataset_key: 'items' });
    for (const id of [done, created.id]) {
      const res = await get(`/scenarios/${id}/views`);
      expect(res.statusCode).toBe(200);
      expect(res.json<{ items: unknown[] }>().items).toEqual([
        { name: 'rows', title: 'Rows', kind: 'table' },
        { name: 'summary', title: 'Summary', kind: 'metrics' },
        { name: 'boom', title: 'Throws', kind: 'text' },
        { name: 'bad-spec', title: 'Returns a bad table', kind: 'table' },
      ]);
    }
    const other = await main.created({ tag: 'other', algo_name: 'Other', dataset_key: 'items' });
    expect((await get(`/scenarios/${other.id}/views`)).json()).toEqual({ items: [] });
    expect((await get('/scenarios/nope/views')).json()).toMatchObject({ code: 'SCENARIO_NOT_FOUND' });
    // A view of a scenario that is not COMPLETE: 409 RESULT_NOT_READY; an unknown view: 404.
    expect((await get(`/scenarios/${created.id}/views/rows`)).json()).toMatchObject({ code: 'RESULT_NOT_READY' });
    expect((await get(`/scenarios/${created.id}/views/rows`)).statusCode).toBe(409);
    expect((await get(`/scenarios/${done}/views/nope`)).statusCode).toBe(404);
  });

  it('pages a table view with limit and cursor, in the view order or sorted by a column', async () => {
    const first = await get(`/scenarios/${done}/views/rows?limit=10`);
    expect(first.statusCode).toBe(200);
    const body = first.json<{ name: string; title: string; kind: string; spec: TableSpec }>();
    expect(body).toMatchObject({ name: 'rows', title: 'Rows', kind: 'table' });
    expect(body.spec.columns[2]).toEqual({ name: 'value', label: 'Value', unit: 'kg', format: ',.2f', type: 'float' });
    expect(body.spec).toMatchObject({ total: 25, sort: null });
    expect(body.spec.rows.map((r) => r[1])).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    const ids: unknown[] = [];
    let cursor: string | null = '';
    while (cursor !== null) {
      const page: TableSpec = (await get(`/scenarios/${done}/views/rows?limit=10&cursor=${cursor}`)).json<{ spec: TableSpec }>().spec;
      ids.push(...page.rows.map((r) => r[1]));
      cursor = page.next_cursor;
    }
    expect(ids).toEqual(Array.from({ length: 25 }, (_, i) => i));

    const sorted = (await get(`/scenarios/${done}/views/rows?limit=1000&sort=-value`)).json<{ spec: TableSpec }>().spec;
    expect(sorted.sort).toEqual({ column: 'value', descending: true });
    const values = sorted.rows.map((r) => r[2]);
    const numbers = values.filter((v): v is number => v !== null);
    expect(numbers).toEqual([...numbers].sort((a, b) => b - a));
    expect(values.slice(numbers.length)).toEqual([null, null]); // nulls last
    const next = (await get(`/scenarios/${done}/views/rows?limit=5&sort=value`)).json<{ spec: TableSpec }>().spec.next_cursor!;
    // A cursor of one sort is refused by another (CURSOR_INVALID); bad limits and unknown columns are QUERY_INVALID.
    for (const [query, code] of [
      [`sort=i&cursor=${next}`, 'CURSOR_INVALID'],
      ['cursor=garbage', 'CURSOR_INVALID'],
      ['limit=0', 'QUERY_INVALID'],
      ['limit=1001', 'QUERY_INVALID'],
      ['limit=x', 'QUERY_INVALID'],
      ['sort=nope', 'QUERY_INVALID'],
    ]) {
      const res = await get(`/scenarios/${done}/views/rows?${query}`);
      expect([res.statusCode, res.json().code], query).toEqual([400, code]);
    }
  });

  it('draws metrics with the data the run took', async () => {
    const res = await get(`/scenarios/${done}/views/summary`);
    const { result } = (await main.get(done)).body as unknown as { result: { stamp: number } };
    expect(res.json()).toEqual({
      name: 'summary',
      title: 'Summary',
      kind: 'metrics',
      spec: {
        items: [
          { label: 'Rows', value: 25, unit: null, better_when: 'HIGHER', format: null },
          { label: 'Items', value: 2, unit: 'items', better_when: null, format: null },
          { label: 'Stamp', value: result.stamp, unit: null, better_when: null, format: null },
        ],
      },
    });
  });

  it('answers a view that throws or returns a bad spec with 422 VIEW_ERROR naming it; the scenario is unchanged', async () => {
    const before = (await main.get(done)).body;
    const boom = await get(`/scenarios/${done}/views/boom`);
    expect(boom.statusCode).toBe(422);
    expect(boom.json()).toMatchObject({ code: 'VIEW_ERROR', detail: "view 'boom' failed: drawn on purpose to fail" });
    const bad = await get(`/scenarios/${done}/views/bad-spec`);
    expect(bad.statusCode).toBe(422);
    expect(bad.json<{ detail: string }>().detail).toMatch(/^view 'bad-spec' returned an unusable table spec: row 0, column "a" holds object/);
    expect((await main.get(done)).body).toEqual(before);
  });

  it('draws a rerun anew: the cache is per run', async () => {
    const scenario = await main.started({ tag: 'rerun', algo_name: 'Rows', dataset_key: 'items', algo_params: { count: 3 } });
    await main.waitFor(scenario.id);
    const stamp = async () => (await get(`/scenarios/${scenario.id}/views/summary`)).json<{ spec: { items: { value: number }[] } }>().spec.items[2]!.value;
    const first = await stamp();
    expect(await stamp()).toBe(first);
    expect((await main.reset(scenario.id)).status).toBe(200);
    expect((await get(`/scenarios/${scenario.id}/views/summary`)).statusCode).toBe(409);
    await main.run(scenario.id);
    await main.waitFor(scenario.id);
    const { result } = (await main.get(scenario.id)).body as unknown as { result: { stamp: number } };
    expect(result.stamp).not.toBe(first);
    expect(await stamp()).toBe(result.stamp);
  });

  it('lists and draws dataset views, read anew when the dataset is replaced', async () => {
    expect((await get('/data/items/views')).json()).toEqual({
      items: [
        { name: 'weights', title: 'Weights', kind: 'table' },
        { name: 'note', title: 'Note', kind: 'text' },
      ],
    });
    const weights = (await get('/data/items/views/weights')).json<{ spec: TableSpec }>().spec;
    expect(weights.columns.map((c) => [c.name, c.type, c.format])).toEqual([['name', 'string', null], ['weight', 'float', '.1f']]);
    expect(weights.rows).toEqual([['a', 1.5], ['b', 2]]);
    expect((await get('/data/items/views/note')).json()).toMatchObject({ kind: 'text', spec: { markdown: '**2** items <b>not html</b>' } });
    const replaced = { ...ITEMS, key: 'replaced' };
    const post = (payload: object) => t.app.inject({ method: 'POST', url: '/api/v1/sessions/main/data/from-json', headers: { 'content-type': 'application/json' }, payload });
    await post(replaced);
    expect((await get('/data/replaced/views/note')).json<{ spec: { markdown: string } }>().spec.markdown).toMatch(/^\*\*2\*\*/);
    await post({ ...replaced, tables: { items: { ...ITEMS.tables.items, rows: [['c', 3]] } } });
    expect((await get('/data/replaced/views/note')).json<{ spec: { markdown: string } }>().spec.markdown).toMatch(/^\*\*1\*\*/);
    expect((await get('/data/nope/views')).statusCode).toBe(404);
    expect((await get('/data/items/views/nope')).statusCode).toBe(404);
  });

  it('lists and draws comparison views of 2 to 6 COMPLETE results of one result type', async () => {
    const second = await main.started({ tag: 'rows 4', algo_name: 'Rows', dataset_key: 'items', algo_params: { count: 4 } });
    await main.waitFor(second.id);
    const ids = `${done},${second.id}`;
    expect((await get(`/compare/views?ids=${ids}`)).json()).toEqual({ items: [{ name: 'counts', title: 'Counts', kind: 'chart' }] });
    const chart = (await get(`/compare/views/counts?ids=${ids}`)).json<{ spec: { vega_lite: { datasets: unknown } } }>();
    expect(chart.spec.vega_lite.datasets).toEqual({ counts: [{ tag: 'rows 25', count: 25, baseline: true }, { tag: 'rows 4', count: 4, baseline: false }] });

    const other = await main.started({ tag: 'other done', algo_name: 'Other', dataset_key: 'items' });
    await main.waitFor(other.id);
    // An algorithm with no table view has no CSV of its result: its JSON form is the only one.
    const csv = await get(`/scenarios/${other.id}/result?format=csv`);
    expect([csv.statusCode, csv.json().code]).toEqual([400, 'RESULT_NOT_TABULAR']);
    const waiting = await main.created({ tag: 'waiting', algo_name: 'Rows', dataset_key: 'items' });
    const cases: [string, number, string][] = [
      [done, 400, 'QUERY_INVALID'],
      [`${done},${done}`, 400, 'QUERY_INVALID'],
      [Array.from({ length: 7 }, (_, i) => `x${i}`).join(','), 400, 'QUERY_INVALID'],
      [`${done},${other.id}`, 400, 'QUERY_INVALID'],
      [`${done},nope`, 404, 'SCENARIO_NOT_FOUND'],
      [`${done},${waiting.id}`, 409, 'RESULT_NOT_READY'],
    ];
    for (const [query, status, code] of cases) {
      const res = await get(`/compare/views?ids=${query}`);
      expect([res.statusCode, res.json().code], query).toEqual([status, code]);
    }
    expect((await get(`/compare/views/nope?ids=${ids}`)).statusCode).toBe(404);
  });

  it("draws a comparison view against compare's baseline: the one asked for, else the plan when compared, else the parent of branches, else the first", async () => {
    const baselineOf = async (query: string) => {
      const res = await get(`/compare/views/counts?${query}`);
      expect(res.statusCode, res.body).toBe(200);
      const { counts } = res.json<{ spec: { vega_lite: { datasets: { counts: { tag: string; baseline: boolean }[] } } } }>().spec.vega_lite.datasets;
      return counts.filter((row) => row.baseline).map((row) => row.tag);
    };
    const compareBaseline = async (query: string) => (await get(`/compare?${query}`)).json<{ baseline: string }>().baseline;
    const branch = await t.app.inject({ method: 'POST', url: `/api/v1/sessions/main/scenarios/${done}/branch`, payload: { tag: 'rows 7 branch', algo_params: { count: 7 } } });
    expect(branch.statusCode, branch.body).toBe(201);
    const branched = branch.json<{ id: string }>().id;
    expect((await main.run(branched)).status).toBe(202);
    expect((await main.waitFor(branched)).status).toBe('COMPLETE');
    const stranger = await main.started({ tag: 'rows 3', algo_name: 'Rows', dataset_key: 'items', algo_params: { count: 3 } });
    expect((await main.waitFor(stranger.id)).status).toBe('COMPLETE');

    // The parent of its branches, though listed last; the same baseline compare reports.
    expect(await baselineOf(`ids=${branched},${done}`)).toEqual(['rows 25']);
    expect(await compareBaseline(`ids=${branched},${done}`)).toBe(done);
    // Not one parent and its branches: the first listed.
    expect(await baselineOf(`ids=${stranger.id},${done}`)).toEqual(['rows 3']);
    // A baseline asked for wins; one not compared is refused.
    expect(await baselineOf(`ids=${branched},${done}&baseline=${branched}`)).toEqual(['rows 7 branch']);
    const notCompared = await get(`/compare/views/counts?ids=${branched},${done}&baseline=${stranger.id}`);
    expect([notCompared.statusCode, notCompared.json().code]).toEqual([400, 'QUERY_INVALID']);

    // The published plan, when compared, is the one to beat: before the parent, before the first.
    const published = await t.app.inject({ method: 'POST', url: `/api/v1/sessions/main/scenarios/${branched}/publish`, payload: { note: 'the plan' } });
    expect(published.statusCode, published.body).toBe(201);
    try {
      expect(await baselineOf(`ids=${branched},${done}`)).toEqual(['rows 7 branch']);
      expect(await compareBaseline(`ids=${branched},${done}`)).toBe(branched);
      expect(await baselineOf(`ids=${stranger.id},${branched}`)).toEqual(['rows 7 branch']);
      // Not compared, the plan changes nothing.
      expect(await baselineOf(`ids=${stranger.id},${done}`)).toEqual(['rows 3']);
    } finally {
      const withdrawn = await t.app.inject({ method: 'DELETE', url: '/api/v1/sessions/main/plan', payload: { note: 'test over' } });
      expect(withdrawn.statusCode, withdrawn.body).toBe(200);
    }
  });
});
