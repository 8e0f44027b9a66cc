import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { detailOf, injectSender, ScenarioClient, type Send } from '../fixtures/scenario-client.js';
import { DIALECTS } from '../support/dialects.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe.each(DIALECTS)('creating and reading scenarios on %s', (dialect) => {
  let t: TestApp;
  let send: Send;
  let main: ScenarioClient;
  beforeAll(async () => {
    t = await startTestApp(dialect);
    send = injectSender(t.app);
    main = new ScenarioClient(send, 'main');
  });
  afterAll(() => t?.close());

  it('lists no scenarios in a new session', async () => {
    expect(await main.list()).toEqual({ status: 200, body: [] });
  });

  it('creates a scenario with 201, status CREATED, a null result and null KPI values', async () => {
    const res = await main.create({ tag: 'first', algo_name: 'As-Is Slotting' });
    expect(res.status).toBe(201);
    const scenario = res.body;
    expect(scenario.id).toMatch(UUID);
    expect(scenario).toMatchObject({
      tag: 'first',
      input_data_id: 'example',
      status: 'CREATED',
      result: null,
      progress: 0,
      started_at: null,
      finished_at: null,
      error: null,
      data_parameters: { category: '', min_daily_picks: 0 },
    });
    expect(scenario.created_at).toMatch(ISO);
    expect(scenario.algorithm.name).toBe('As-Is Slotting');
    expect(Object.keys(scenario.kpis).sort()).toEqual(['Reslot Moves', 'Travel Distance', 'Zone Balance']);
    expect(scenario.kpis['Travel Distance']).toEqual({ name: 'Travel Distance', value: null, unit: 'm', better_when: 'LOWER', threshold: null });
    for (const kpi of Object.values(scenario.kpis)) {
      expect(Object.keys(kpi).sort()).toEqual(['better_when', 'name', 'threshold', 'unit', 'value']);
      expect(kpi.value).toBeNull();
    }
  });

  it('serves exactly the payload fields of docs/api/contract.md', async () => {
    const scenario = (await main.created({ tag: 'shape', algo_name: 'Instant' }));
    expect(Object.keys(scenario).sort()).toEqual(
      [
        'algorithm',
        'created_at',
        'data_parameters',
        'error',
        'finished_at',
        'id',
        'input_data_id',
        'kpis',
        'parent_id',
        'progress',
        'result',
        'started_at',
        'status',
        'tag',
        // Planning cycles (docs/api/cycles.md).
        'dataset_version',
        'result_dataset_version',
        'stale',
        'rebased_from',
        'replans',
        'warm_start_from',
        'plan_churn',
      ].sort(),
    );
  });

  it('describes the algorithm parameters with the values chosen for the scenario', async () => {
    const scenario = await main.created({
      tag: 'matrix',
      algo_name: 'Parameter Matrix',
      algo_params: { int_param: 3, enum_param: 'blue', multi_enum_param: ['east'], time_param: '23:59:59' },
      data_params: { min_daily_picks: 2.5 },
    });
    const byName = Object.fromEntries(scenario.algorithm.parameters.map((p) => [p.name, p]));
    expect(byName.int_param).toEqual({ name: 'int_param', type: 'integer', required: false, value: 3, default: 7, min: -100, max: 100, description: expect.any(String), label: 'Int param' });
    expect(byName.enum_param).toMatchObject({ type: 'enum', value: 'blue', default: 'green', choices: ['red', 'green', 'blue'] });
    expect(byName.multi_enum_param).toMatchObject({ type: 'multi_enum', value: ['east'] });
    expect(byName.float_param).toMatchObject({ type: 'float', value: 2.5 });
    expect(byName.interval_param).toMatchObject({ type: 'interval', value: ['2024-01-01', '2024-12-31'] });
    expect(scenario.data_parameters).toEqual({ category: '', min_daily_picks: 2.5 });
  });

  it('takes null parameter objects as all defaults', async () => {
    const scenario = await main.created({ tag: 'nulls', algo_name: 'Parameter Matrix', algo_params: null, data_params: null });
    expect(scenario.algorithm.parameters.find((p) => p.name === 'int_param')?.value).toBe(7);
  });

  it('gets a scenario by id and lists scenarios in creation order', async () => {
    const list = await main.list();
    expect(list.status).toBe(200);
    expect(list.body.map((s) => s.tag)).toEqual(['first', 'shape', 'matrix', 'nulls']);
    const one = await main.get(list.body[2]!.id);
    expect(one).toEqual({ status: 200, body: list.body[2] });
  });

  it.each([
    ['an out-of-range value', { int_param: 1000 }, undefined, 'int_param'],
    ['a value of the wrong JSON type', { int_param: '3' }, undefined, 'int_param'],
    ['an unknown parameter name', { nope: 1 }, undefined, 'nope'],
    ['an enum value not among the choices', { enum_param: 'purple' }, undefined, 'enum_param'],
    ['a malformed time of day', { time_param: '25:00' }, undefined, 'time_param'],
    ['a data parameter out of range', undefined, { min_daily_picks: -1 }, 'min_daily_picks'],
    ['an unknown data parameter', undefined, { colour: 'red' }, 'colour'],
  ])('answers 400 naming the parameter for %s, and stores nothing', async (_label, algoParams, dataParams, name) => {
    const before = (await main.list()).body.length;
    const res = await main.create({ tag: `bad ${name}`, algo_name: 'Parameter Matrix', algo_params: algoParams, data_params: dataParams });
    expect(res.status).toBe(400);
    expect(detailOf(res)).toContain(name);
    expect((await main.list()).body).toHaveLength(before);
  });

  it.each([
    ['an unknown algorithm', { algo_name: 'No Such Algorithm' }, 'No Such Algorithm'],
    ['an unknown dataset key', { algo_name: 'Instant', dataset_key: 'no such data' }, 'no such data'],
  ])('answers 404 for %s', async (_label, body, named) => {
    const res = await main.create({ tag: 'missing', ...body });
    expect(res.status).toBe(404);
    expect(detailOf(res)).toContain(named);
  });

  it('answers 409 when the tag already exists in the session, and accepts it in another session', async () => {
    const res = await main.create({ tag: 'first', algo_name: 'Instant' });
    expect(res.status).toBe(409);
    expect(detailOf(res)).toContain('first');
    await send('POST', '/sessions/main/copy', { new_display_name: 'tags elsewhere' });
    const other = new ScenarioClient(send, encodeURIComponent('tags elsewhere'));
    expect((await other.create({ tag: 'brand new', algo_name: 'Instant' })).status).toBe(201);
  });

  it.each([
    ['a missing tag', { dataset_key: 'example', algo_name: 'Instant' }, 'tag'],
    ['a missing dataset_key', { tag: 'x', algo_name: 'Instant', dataset_key: undefined }, 'dataset_key'],
    ['a missing algo_name', { tag: 'x' }, 'algo_name'],
    ['an empty tag', { tag: '', algo_name: 'Instant' }, 'tag'],
    ['a blank tag', { tag: '   ', algo_name: 'Instant' }, 'tag'],
    ['an empty algo_name', { tag: 'x', algo_name: '' }, 'algo_name'],
    ['an empty dataset_key', { tag: 'x', algo_name: 'Instant', dataset_key: '' }, 'dataset_key'],
    ['a numeric tag', { tag: 5, algo_name: 'Instant' }, 'tag'],
    ['a null tag', { tag: null, algo_name: 'Instant' }, 'tag'],
    ['a tag of 201 characters', { tag: 't'.repeat(201), algo_name: 'Instant' }, 'tag'],
    ['a tag with a control character', { tag: 'a\u0000b', algo_name: 'Instant' }, 'tag'],
    ['an array algo_name', { tag: 'x', algo_name: ['Instant'] }, 'algo_name'],
    ['algo_params as an array', { tag: 'x', algo_name: 'Instant', algo_params: [] }, 'algo_params'],
    ['algo_params as a string', { tag: 'x', algo_name: 'Instant', algo_params: '{}' }, 'algo_params'],
    ['data_params as a number', { tag: 'x', algo_name: 'Instant', data_params: 1 }, 'data_params'],
  ])('answers 422 naming the field for %s', async (_label, body, field) => {
    const res = await send('POST', '/sessions/main/scenarios', { dataset_key: 'example', ...body });
    expect(res.status).toBe(422);
    const error = res.body as { detail: string; errors: { path: string }[] };
    expect(typeof error.detail).toBe('string');
    expect(error.errors.map((e) => e.path).join(' ')).toContain(field);
  });

  it('answers 422 for a request without a body', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/sessions/main/scenarios' });
    expect(res.statusCode).toBe(422);
  });

  it('accepts unicode tags as opaque strings', async () => {
    const scenario = await main.created({ tag: 'Lager Zürich 倉庫 📦 / ..', algo_name: 'Instant' });
    expect((await main.get(scenario.id)).body.tag).toBe('Lager Zürich 倉庫 📦 / ..');
  });

  it('answers 404 for an unknown scenario on every scenario route', async () => {
    const id = '00000000-0000-4000-8000-000000000000';
    for (const [method, path] of [
      ['GET', `/sessions/main/scenarios/${id}`],
      ['DELETE', `/sessions/main/scenarios/${id}`],
      ['POST', `/sessions/main/scenarios/${id}/run`],
      ['POST', `/sessions/main/scenarios/${id}/reset`],
      ['GET', `/sessions/main/scenarios/${id}/status`],
      ['GET', `/sessions/main/scenarios/not-a-uuid`],
    ] as const) {
      const res = await send(method, path);
      expect(res.status, `${method} ${path}`).toBe(404);
      expect(typeof detailOf(res)).toBe('string');
    }
  });

  it('answers 404 for an unknown session on every scenario route', async () => {
    const scenario = (await main.list()).body[0]!;
    for (const [method, path, payload] of [
      ['GET', '/sessions/nope/scenarios', undefined],
      ['POST', '/sessions/nope/scenarios', { tag: 'x', dataset_key: 'example', algo_name: 'Instant' }],
      ['GET', `/sessions/nope/scenarios/${scenario.id}`, undefined],
      ['DELETE', `/sessions/nope/scenarios/${scenario.id}`, undefined],
      ['POST', `/sessions/nope/scenarios/${scenario.id}/run`, undefined],
      ['POST', `/sessions/nope/scenarios/${scenario.id}/reset`, undefined],
      ['GET', `/sessions/nope/scenarios/${scenario.id}/status`, undefined],
      ['GET', '/sessions/nope/processing', undefined],
    ] as const) {
      expect((await send(method, path, payload)).status, `${method} ${path}`).toBe(404);
    }
  });

  it('does not reach a scenario of one session through another session', async () => {
    const scenario = (await main.list()).body[0]!;
    const other = new ScenarioClient(send, encodeURIComponent('tags elsewhere'));
    expect((await other.get(scenario.id)).status).toBe(404);
    expect((await other.status(scenario.id)).status).toBe(404);
    expect((await other.delete(scenario.id)).status).toBe(404);
    expect((await main.get(scenario.id)).status).toBe(200);
  });

  it('lists the scenario routes in the OpenAPI document', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json<{ paths: Record<string, unknown>; servers: { url: string }[] }>();
    // Paths are relative to the document's one server, the prefix.
    expect(doc.servers).toEqual([expect.objectContaining({ url: '/api/v1' })]);
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/sessions/{sid}/scenarios',
        '/sessions/{sid}/scenarios/{id}',
        '/sessions/{sid}/scenarios/{id}/run',
        '/sessions/{sid}/scenarios/{id}/reset',
        '/sessions/{sid}/scenarios/{id}/status',
        '/sessions/{sid}/processing',
      ]),
    );
  });
});
