import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReportBody, ReportSummary } from '../../src/decisions/report-body.js';
import type { TablePage, ViewBody } from '../../src/views/rendered.js';
import { VIEWS_DOMAIN } from '../fixtures/test-domain-path.js';
import { injectSender, ScenarioClient, type Send } from '../fixtures/scenario-client.js';
import { DIALECTS } from '../support/dialects.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { readWorkbook, type ReadCell } from '../support/xlsx-read.js';

interface ErrorReply {
  code: string;
  detail: string;
}

/** A sheet's rows with each row padded to the header's width (a writer leaves trailing empty cells out). */
const padded = (rows: ReadCell[][]) => rows.map((row) => [...row, ...Array<ReadCell>(Math.max(0, rows[0]!.length - row.length)).fill(null)]);

describe.each(DIALECTS)('reports on %s', (dialect) => {
  let t: TestApp;
  let send: Send;
  let s: ScenarioClient;
  let ids: string[];

  beforeAll(async () => {
    t = await startTestApp(dialect);
    send = injectSender(t.app);
    expect((await send('POST', '/sessions/main/copy', { new_display_name: 'reports' })).status).toBe(201);
    s = new ScenarioClient(send, 'reports');
    // Two real slottings with different KPIs, and one that is only CREATED (no values, no views).
    const asIs = await s.started({ tag: 'as is', algo_name: 'As-Is Slotting' });
    const greedy = await s.started({ tag: 'greedy', algo_name: 'Greedy Slotting' });
    for (const id of [asIs.id, greedy.id]) expect((await s.waitFor(id)).status).toBe('COMPLETE');
    const waiting = await s.created({ tag: 'not run', algo_name: 'Instant' });
    ids = [asIs.id, greedy.id, waiting.id];
  }, 180_000);
  afterAll(() => t?.close());

  const create = (body: unknown) => send('POST', '/sessions/reports/reports', body) as Promise<{ status: number; body: ReportBody & ErrorReply }>;
  const get = (path: string) => t.app.inject({ method: 'GET', url: `/api/v1/sessions/reports${path}` });

  it('freezes KPIs with deltas, parameters, inputs and every view as rendered, with who and when; survives its scenarios', async () => {
    const compare = (await send('GET', `/sessions/reports/compare?ids=${ids.join(',')}&baseline=${ids[1]}`)).body as Pick<ReportBody, 'kpis' | 'parameters' | 'scenarios'>;
    const made = await create({ title: 'Slotting review', ids, baseline: ids[1], note: 'for Monday' });
    expect(made.status).toBe(201);
    const report = made.body;
    expect(report).toMatchObject({ title: 'Slotting review', note: 'for Monday', baseline: ids[1], created_by: { id: 'local', name: 'local' } });
    expect(report.kpis).toEqual(compare.kpis);
    // Compare's parameter rows, each frozen with the label discovery gives it (what the dashboard shows).
    expect(report.parameters.map(({ label: _label, ...row }) => row)).toEqual(compare.parameters);
    const discovered = async (path: string) => (await get(path)).json<{ parameters: { name: string; label: string }[] }>().parameters;
    const algorithms = await Promise.all(report.scenarios.map((x) => discovered(`/algorithms/${encodeURIComponent(x.algorithm)}/parameters`)));
    const declared = new Map([
      ...algorithms.flat().map((d) => [d.name, d.label] as const),
      ...(await discovered('/data/example/parameters')).map((d) => [`data_params.${d.name}`, d.label] as const),
    ]);
    expect(report.parameters.find((p) => p.name === 'depot_x')?.label).toBe('Depot x');
    expect(report.parameters.map((p) => [p.name, p.label])).toEqual(report.parameters.map((p) => [p.name, declared.get(p.name)]));
    expect(report.scenarios).toEqual(compare.scenarios);
    expect(report.kpis.some((k) => k.values.some((v) => v.delta !== null && v.delta !== 0))).toBe(true);
    expect(report.inputs).toEqual([{ name: 'dataset', values: ids.map((id) => ({ scenario_id: id, value: 'example' })), differs: false }]);

    // Each COMPLETE scenario's result views, as the view route answers them, a table whole in one page.
    const [asIsViews, greedyViews, waitingViews] = report.views.scenarios;
    expect(waitingViews).toEqual({ scenario_id: ids[2], tag: 'not run', views: [] });
    const listed = (await get(`/scenarios/${ids[1]}/views`)).json<{ items: { name: string }[] }>().items.map((v) => v.name);
    expect(greedyViews!.views.map((v) => v.name)).toEqual(listed);
    expect(asIsViews!.views.map((v) => v.name)).toEqual(listed);
    for (const view of greedyViews!.views as ViewBody[]) {
      const served = (await get(`/scenarios/${ids[1]}/views/${view.name}?limit=1000`)).json<ViewBody>();
      if (view.kind === 'table') {
        const whole = view.spec as TablePage;
        expect(whole.next_cursor).toBeNull();
        expect(whole.total).toBe(whole.rows.length);
        expect(whole.rows.slice(0, 1000)).toEqual((served.spec as TablePage).rows);
        expect(whole.total).toBe((served.spec as TablePage).total);
      } else {
        expect(view).toEqual(served);
      }
    }
    // Comparison views draw COMPLETE results only: with the CREATED one among the ids there are none.
    expect(report.views.comparison).toEqual([]);
    const pair = (await create({ title: 'pair', ids: ids.slice(0, 2) })).body;
    const comparisonNames = (await get(`/compare/views?ids=${ids.slice(0, 2).join(',')}`)).json<{ items: { name: string }[] }>().items.map((v) => v.name);
    expect(comparisonNames.length).toBeGreaterThan(0);
    expect(pair.views.comparison.map((v) => v.name)).toEqual(comparisonNames);
    expect(pair.baseline).toBe(ids[0]);

    // Immutable, and independent of its scenarios: reset one, delete all, the report reads the same.
    const stored = await get(`/reports/${report.id}`);
    expect(stored.statusCode).toBe(200);
    expect(stored.json()).toEqual(report);
    expect((await s.reset(ids[0]!)).status).toBe(200);
    for (const id of ids) expect((await s.delete(id)).status).toBe(204);
    expect((await get(`/reports/${report.id}`)).json()).toEqual(report);
    expect((await get(`/reports/${pair.id}`)).json()).toEqual(pair);

    // Listed in creation order, in pages, without bodies.
    const first = (await get('/reports?limit=1')).json<{ items: ReportSummary[]; next_cursor: string | null }>();
    expect(first.items).toEqual([{ id: report.id, kind: 'comparison', title: 'Slotting review', note: 'for Monday', scenario_ids: ids, created_at: report.created_at, created_by: { id: 'local', name: 'local' } }]);
    const second = (await get(`/reports?limit=1&cursor=${first.next_cursor}`)).json<{ items: ReportSummary[]; next_cursor: string | null }>();
    expect(second.items.map((r) => r.id)).toEqual([pair.id]);
    expect(second.next_cursor).toBeNull();
    expect((await get('/reports?cursor=garbage')).statusCode).toBe(400);

    // The workbook: Summary (KPI deltas), Parameters, Inputs, a sheet per drawn table view, About.
    const xlsx = await get(`/reports/${report.id}?format=xlsx`);
    expect(xlsx.statusCode).toBe(200);
    expect(xlsx.headers['content-type']).toContain('spreadsheetml');
    expect(xlsx.headers['content-disposition']).toContain('Slotting review.xlsx');
    const book = readWorkbook(xlsx.rawPayload);
    const tables = report.views.scenarios.flatMap((sv) => sv.views.filter((v) => v.kind === 'table' && 'spec' in v).map((v) => ({ sheet: `${sv.tag} ${v.title}`.slice(0, 31), view: v as ViewBody })));
    expect(book.names).toEqual(['Summary', 'Parameters', 'Inputs', 'Input changes', ...tables.map((x) => x.sheet), 'About']);
    const summary = padded(book.sheets.Summary!);
    expect(summary[0]).toEqual(['kpi', 'unit', 'better_when', 'tag', 'scenario_id', 'baseline', 'value', 'delta', 'relative_delta', 'comparison', 'best']);
    const expected = report.kpis.flatMap((k) =>
      k.values.map((v) => [k.name, k.unit, k.better_when, report.scenarios.find((x) => x.id === v.scenario_id)!.tag, v.scenario_id, v.scenario_id === ids[1], v.value, v.delta, v.relative_delta, v.comparison, k.best === v.scenario_id]),
    );
    expect(summary.slice(1)).toEqual(expected);
    const parameters = padded(book.sheets.Parameters!);
    expect(parameters[0]).toEqual(['parameter', 'label', 'differs', 'as is', 'greedy', 'not run']);
    expect(parameters.slice(1).map((row) => row.slice(0, 3))).toEqual(report.parameters.map((p) => [p.name, p.label, p.differs]));
    expect(padded(book.sheets.Inputs!)).toEqual([
      ['input', 'differs', 'as is', 'greedy', 'not run'],
      ['dataset', false, 'example', 'example', 'example'],
    ]);
    // Compare's inputs, frozen: what each other scenario changes against the baseline, one row a change.
    expect(report.input_changes.map((c) => c.scenario_id)).toEqual(ids.filter((id) => id !== report.baseline));
    expect(report.input_changes).toEqual((compare as unknown as { inputs: unknown }).inputs);
    expect(report.input_changes.every((c) => c.parameters.some((p) => p.name === 'algorithm'))).toBe(true);
    const tagOf = (id: string) => report.scenarios.find((x) => x.id === id)!.tag;
    const changes = padded(book.sheets['Input changes']!);
    expect(changes[0]).toEqual(['tag', 'kind', 'what', 'from', 'to']);
    expect(changes.slice(1).map((row) => row.slice(0, 3))).toEqual(report.input_changes.flatMap((c) => c.parameters.map((p) => [tagOf(c.scenario_id), 'parameter', p.name])));
    expect(changes.length).toBeGreaterThan(1);
    for (const { sheet, view } of tables) {
      const table = view.spec as TablePage;
      const rows = padded(book.sheets[sheet]!);
      expect(rows[0]).toEqual(table.columns.map((c) => c.label));
      expect(rows.slice(1)).toEqual(table.rows);
    }
    expect(book.sheets.About!.slice(1, 3)).toEqual([
      ['title', 'Slotting review'],
      ['note', 'for Monday'],
    ]);
  }, 120_000);

  it('refuses bad requests with a detail and stores nothing', async () => {
    const before = (await get('/reports')).json<{ items: unknown[] }>().items.length;
    const ok = await s.created({ tag: 'refusals', algo_name: 'Instant' });
    const cases: [unknown, number, string][] = [
      [{ title: 'x', ids: ['no-such-id'] }, 404, 'SCENARIO_NOT_FOUND'],
      [{ title: 'x', ids: [ok.id], baseline: 'other' }, 422, 'INVALID_REQUEST'],
      [{ title: 'x', ids: [ok.id, ok.id] }, 422, 'INVALID_REQUEST'],
      [{ title: 'x', ids: [] }, 422, 'INVALID_REQUEST'],
      [{ title: '', ids: [ok.id] }, 422, 'INVALID_REQUEST'],
      [{ ids: [ok.id] }, 422, 'INVALID_REQUEST'],
      [{ title: 'x', ids: 'a,b' }, 422, 'INVALID_REQUEST'],
    ];
    for (const [body, status, code] of cases) {
      const reply = await create(body);
      expect([reply.status, reply.body.code], JSON.stringify(body)).toEqual([status, code]);
      expect(reply.body.detail.length).toBeGreaterThan(0);
    }
    expect((await get('/reports')).json<{ items: unknown[] }>().items).toHaveLength(before);
    expect((await get('/reports/nope')).json<ErrorReply>()).toMatchObject({ code: 'REPORT_NOT_FOUND' });
    expect((await get('/reports/nope')).statusCode).toBe(404);
    expect((await get('/reports/nope?format=pdf')).statusCode).toBe(400);
    expect((await send('GET', '/sessions/nope/reports')).status).toBe(404);
  });
});

const ITEMS = { key: 'items', tables: { items: { columns: [{ name: 'name', type: 'string' }, { name: 'weight', type: 'float' }], rows: [['a', 1.5]] } } };

describe.each(DIALECTS)('reports of a domain with failing views on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(dialect, { domain: VIEWS_DOMAIN });
  });
  afterAll(() => t?.close());

  it('keeps a view that failed as its error, every row of a table longer than a page, and the comparison views', async () => {
    const s = new ScenarioClient(injectSender(t.app), 'main');
    const stored = await t.app.inject({ method: 'POST', url: '/api/v1/sessions/main/data/from-json', headers: { 'content-type': 'application/json' }, payload: ITEMS });
    expect(stored.statusCode).toBe(201);
    const ids: string[] = [];
    for (const count of [1500, 3]) {
      const started = await s.started({ tag: `rows ${count}`, algo_name: 'Rows', dataset_key: 'items', algo_params: { count } });
      expect((await s.waitFor(started.id)).status).toBe('COMPLETE');
      ids.push(started.id);
    }
    const made = await s.send('POST', '/sessions/main/reports', { title: 'rows', ids });
    expect(made.status).toBe(201);
    const report = made.body as ReportBody;
    const views = report.views.scenarios[0]!.views;
    expect(views.map((v) => [v.name, 'error' in v ? 'error' : 'spec'])).toEqual([
      ['rows', 'spec'],
      ['summary', 'spec'],
      ['boom', 'error'],
      ['bad-spec', 'error'],
    ]);
    expect((views[2] as { error: string }).error).toContain('drawn on purpose to fail');
    const table = (views[0] as ViewBody).spec as TablePage;
    expect([table.rows.length, table.total, table.next_cursor]).toEqual([1500, 1500, null]);
    expect(report.views.comparison.map((v) => v.name)).toEqual(['counts']);
    // The workbook holds the drawn table whole; the failed table view has no sheet.
    const book = readWorkbook((await t.app.inject({ method: 'GET', url: `/api/v1/sessions/main/reports/${report.id}?format=xlsx` })).rawPayload);
    expect(book.names).toEqual(['Summary', 'Parameters', 'Inputs', 'Input changes', 'rows 1500 Rows', 'rows 3 Rows', 'About']);
    expect(book.sheets['rows 1500 Rows']).toHaveLength(1501);
  }, 120_000);
});
