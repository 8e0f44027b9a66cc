import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { injectSender, ScenarioClient } from '../fixtures/scenario-client.js';
import { DIALECTS } from '../support/dialects.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

describe.each(DIALECTS)('discovery, compare and error codes on %s', (dialect) => {
  let t: TestApp;
  let client: ScenarioClient;
  const get = (url: string) => t.app.inject({ method: 'GET', url: `/api/v1/sessions/main${url}` });

  beforeAll(async () => {
    t = await startTestApp(dialect, { body_limit: 1024 });
    client = new ScenarioClient(injectSender(t.app), 'main');
  });
  afterAll(() => t?.close());

  it('lists algorithms with descriptions and tags, the five diagnostics tagged', async () => {
    const body = (await get('/algorithms')).json<{ algorithms: string[]; items: { name: string; description: string | null; tags: string[] }[] }>();
    expect(body.items.map((a) => a.name)).toEqual(body.algorithms);
    const diagnostic = body.items.filter((a) => a.tags.includes('diagnostic')).map((a) => a.name);
    expect(diagnostic.sort()).toEqual(['Busy', 'Fail', 'Instant', 'Parameter Matrix', 'Sleep']);
    expect(body.items.find((a) => a.name === 'Greedy Slotting')).toEqual({ name: 'Greedy Slotting', description: expect.stringContaining('fastest-moving'), tags: [], seed_parameter: null });
  });

  it('lists KPIs with unit, direction, threshold and description', async () => {
    const body = (await get('/kpis')).json<{ kpis: string[]; items: { name: string; unit: string; better_when: string; threshold: number | null; description: string | null }[] }>();
    expect(body.items.map((k) => k.name)).toEqual(body.kpis);
    expect(body.items.find((k) => k.name === 'Travel Distance')).toMatchObject({ unit: expect.any(String), better_when: 'LOWER' });
    for (const kpi of body.items) expect(kpi).toHaveProperty('description');
  });

  it('compares real runs against a baseline with the deltas of their KPIs', async () => {
    const asIs = await client.started({ tag: 'as-is', algo_name: 'As-Is Slotting' });
    const greedy = await client.started({ tag: 'greedy', algo_name: 'Greedy Slotting', algo_params: { respect_zones: false } });
    const pending = await client.created({ tag: 'pending', algo_name: 'Greedy Slotting' });
    await client.waitFor(asIs.id);
    await client.waitFor(greedy.id);
    const res = await get(`/compare?ids=${asIs.id},${greedy.id},${pending.id}`);
    expect(res.statusCode).toBe(200);
    const view = res.json<{
      baseline: string;
      scenarios: { id: string; tag: string; algorithm: string }[];
      kpis: { name: string; better_when: string; best: string | null; values: { scenario_id: string; value: number | null; delta: number | null; relative_delta: number | null; comparison: string | null }[] }[];
      parameters: { name: string; differs: boolean; values: { scenario_id: string; value: unknown }[] }[];
    }>();
    expect(view.baseline).toBe(asIs.id);
    expect(view.scenarios.map((s) => s.tag)).toEqual(['as-is', 'greedy', 'pending']);
    const kpis = (await client.get(greedy.id)).body.kpis;
    const base = (await client.get(asIs.id)).body.kpis;
    const travel = view.kpis.find((k) => k.name === 'Travel Distance')!;
    const b = base['Travel Distance']!.value!;
    const g = kpis['Travel Distance']!.value!;
    expect(travel.values[1]).toEqual({ scenario_id: greedy.id, value: g, delta: g - b, relative_delta: b === 0 ? null : (g - b) / Math.abs(b), comparison: g < b ? 'better' : g > b ? 'worse' : 'equal' });
    expect(travel.values[2]).toEqual({ scenario_id: pending.id, value: null, delta: null, relative_delta: null, comparison: null });
    expect(travel.best).toBe(g <= b ? (g < b ? greedy.id : asIs.id) : asIs.id);
    const zones = view.parameters.find((p) => p.name === 'respect_zones')!;
    expect(zones.differs).toBe(true);
    expect(zones.values.map((v) => v.value)).toEqual([null, false, true]);
    const depot = view.parameters.find((p) => p.name === 'depot_x')!;
    expect(depot.differs).toBe(false);

    const withBaseline = (await get(`/compare?ids=${asIs.id},${greedy.id}&baseline=${greedy.id}`)).json<typeof view>();
    expect(withBaseline.kpis.find((k) => k.name === 'Travel Distance')!.values[0]!.delta).toBe(b - g);
  });

  it.each([
    ['no ids', '', 400, 'QUERY_INVALID'],
    ['an empty entry', '?ids=a,,b', 400, 'QUERY_INVALID'],
    ['a repeated id', '?ids=a,a', 400, 'QUERY_INVALID'],
    ['51 ids', `?ids=${Array.from({ length: 51 }, (_, i) => `s${i}`).join(',')}`, 400, 'QUERY_INVALID'],
    ['a baseline not among the ids', '?ids=a,b&baseline=c', 400, 'QUERY_INVALID'],
    ['an unknown id', '?ids=nope', 404, 'SCENARIO_NOT_FOUND'],
  ])('compare rejects %s', async (_name, query, status, code) => {
    const res = await get(`/compare${query}`);
    expect(res.statusCode).toBe(status);
    expect(res.json()).toMatchObject({ detail: expect.any(String), code });
  });

  it('answers every kind of error with { detail, code }', async () => {
    const cases: [Promise<{ statusCode: number; json: () => unknown }>, number, string][] = [
      [t.app.inject({ method: 'GET', url: '/api/v1/no/such/route' }), 404, 'ROUTE_NOT_FOUND'],
      [t.app.inject({ method: 'GET', url: '/api/v1/sessions/nope/scenarios' }), 404, 'SESSION_NOT_FOUND'],
      [t.app.inject({ method: 'GET', url: '/api/v1/sessions/%E0%A4%A' }), 400, 'URL_MALFORMED'],
      [t.app.inject({ method: 'POST', url: '/api/v1/sessions', headers: { 'content-type': 'application/json' }, payload: '{"display_name": ' }), 400, 'BODY_MALFORMED'],
      [t.app.inject({ method: 'POST', url: '/api/v1/sessions', headers: { 'content-type': 'application/xml' }, payload: '<x/>' }), 415, 'UNSUPPORTED_MEDIA_TYPE'],
      [t.app.inject({ method: 'POST', url: '/api/v1/sessions', payload: { display_name: 'x'.repeat(2000) } }), 413, 'BODY_TOO_LARGE'],
      [t.app.inject({ method: 'POST', url: '/api/v1/sessions', payload: { display_name: 5 } }), 422, 'INVALID_REQUEST'],
      [t.app.inject({ method: 'POST', url: '/api/v1/sessions', payload: { display_name: 'main' } }), 409, 'SESSION_NAME_TAKEN'],
      [t.app.inject({ method: 'POST', url: '/api/v1/sessions/main/scenarios', payload: { tag: 'bad', dataset_key: 'example', algo_name: 'Sleep', algo_params: { duration_ms: -5 } } }), 400, 'PARAMETER_INVALID'],
    ];
    for (const [pending, status, code] of cases) {
      const res = await pending;
      expect([res.statusCode, res.json()]).toEqual([status, expect.objectContaining({ detail: expect.any(String), code })]);
    }
  });
});
