import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { injectSender, ScenarioClient } from '../fixtures/scenario-client.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

interface Body<S> {
  name: string;
  kind: string;
  spec: S;
}
type Chart = { vega_lite: { data?: { name?: string; values?: unknown[] }; datasets?: Record<string, Record<string, unknown>[]> } & Record<string, unknown> };

// The names the dashboard relies on (docs/api/views.md), drawn from the bundled sample.
describe('the warehouse example views', () => {
  let t: TestApp;
  let main: ScenarioClient;
  const get = (path: string) => t.app.inject({ method: 'GET', url: `/api/v1/sessions/main${path}` });
  let greedy: string;
  let asIs: string;

  beforeAll(async () => {
    t = await startTestApp('sqlite');
    main = new ScenarioClient(injectSender(t.app), 'main');
    greedy = (await main.started({ tag: 'greedy', algo_name: 'Greedy Slotting' })).id;
    asIs = (await main.started({ tag: 'as is', algo_name: 'As-Is Slotting' })).id;
    for (const id of [greedy, asIs]) expect((await main.waitFor(id)).status).toBe('COMPLETE');
  });
  afterAll(() => t?.close());

  it('draws the dataset views: the layout by zone and the daily picks', async () => {
    expect((await get('/data/example/views')).json()).toEqual({
      items: [
        { name: 'layout-by-zone', title: 'Layout by zone', kind: 'chart' },
        { name: 'daily-picks', title: 'Daily picks per SKU', kind: 'chart' },
      ],
    });
    const layout = (await get('/data/example/views/layout-by-zone')).json<Body<Chart>>();
    expect(layout.spec.vega_lite.data).toEqual({ name: 'faces' });
    expect(new Set(layout.spec.vega_lite.datasets!.faces!.map((f) => f.zone)).size).toBeGreaterThan(1);
    const picks = (await get('/data/example/views/daily-picks')).json<Body<Chart>>();
    expect(picks.spec.vega_lite.data!.values!.reduce((n: number, bin) => n + (bin as { skus: number }).skus, 0)).toBe(200);
  });

  it('draws a slotting result as a heat map before and after, its assignments and its moves', async () => {
    expect((await get(`/scenarios/${greedy}/views`)).json()).toEqual({
      items: [
        { name: 'floor-heatmap', title: 'Floor heat map: daily picks before and after', kind: 'chart' },
        { name: 'assignments', title: 'Assignments', kind: 'table' },
        { name: 'moves', title: 'Moves', kind: 'table' },
      ],
    });
    const heat = (await get(`/scenarios/${greedy}/views/floor-heatmap`)).json<Body<Chart>>();
    const floor = heat.spec.vega_lite.datasets!.floor!;
    const faces = floor.filter((f) => f.kind === 'face');
    expect(new Set(faces.map((f) => f.plan))).toEqual(new Set(['before', 'after']));
    // Each face names its locations (the tooltip), and is a cell in metres around its position.
    expect(faces[0]).toMatchObject({ location: 'A-01-001-1, A-01-001-2, A-01-001-3, A-01-001-4', x: 2, y: 1.5 });
    expect((faces[0]!.x1 as number) - (faces[0]!.x0 as number)).toBeGreaterThan(1);
    // The depot is marked on both plans; the colour scale is the dashboard theme's (no scheme fixed here).
    expect(floor.filter((f) => f.kind === 'depot').map((d) => [d.plan, d.x, d.y])).toEqual([
      ['before', 0, 0],
      ['after', 0, 0],
    ]);
    expect(JSON.stringify(heat.spec.vega_lite)).not.toContain('scheme');
    // Two plans as a wrapped facet: side by side where they fit, stacked on a phone (the dashboard decides).
    expect(heat.spec.vega_lite).toMatchObject({ columns: 2, facet: { field: 'plan' } });
    const total = (plan: string) => faces.filter((f) => f.plan === plan).reduce((sum, f) => sum + (f.picks as number), 0);
    expect(total('after')).toBeGreaterThan(0);

    const moves = (await get(`/scenarios/${greedy}/views/moves?limit=1000`)).json<Body<{ columns: { name: string }[]; rows: unknown[][]; sort: unknown; total: number }>>();
    expect(moves.spec.columns.map((c) => c.name)).toEqual(['sku', 'from', 'to', 'saving']);
    expect(moves.spec.sort).toEqual({ column: 'saving', descending: true });
    expect(moves.spec.total).toBeGreaterThan(0);
    expect(moves.spec.rows.every(([, from, to]) => from !== to)).toBe(true);
    // As-is moves nothing.
    expect((await get(`/scenarios/${asIs}/views/moves`)).json<Body<{ total: number }>>().spec.total).toBe(0);
  });

  it('compares travel by zone across scenarios, by tag, and exports the result as XLSX through the first table view', async () => {
    expect((await get(`/compare/views?ids=${greedy},${asIs}`)).json()).toEqual({ items: [{ name: 'travel-by-zone', title: 'Travel distance by zone', kind: 'chart' }] });
    const chart = (await get(`/compare/views/travel-by-zone?ids=${greedy},${asIs}`)).json<Body<Chart>>();
    expect(new Set(chart.spec.vega_lite.data!.values!.map((v) => (v as { scenario: string }).scenario))).toEqual(new Set(['greedy', 'as is']));
    const xlsx = await get(`/scenarios/${greedy}/result?format=xlsx`);
    expect(xlsx.statusCode).toBe(200);
    expect(xlsx.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(xlsx.rawPayload.subarray(0, 2).toString()).toBe('PK');
  });
});
