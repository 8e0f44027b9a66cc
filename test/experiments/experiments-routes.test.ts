import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { injectSender, type Reply, type Send } from '../fixtures/scenario-client.js';
import { DIALECTS } from '../support/dialects.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { until } from '../support/until.js';

interface ExperimentBody {
  id: string;
  name: string;
  size: number;
  axes: Record<string, unknown[]>;
  counts: Record<string, number>;
  progress: number;
  summary: null | {
    axes: { path: string; values: { value: unknown; kpis: Record<string, { mean: number; min: number; max: number; count: number }> }[] }[];
    best: Record<string, { id: string; value: number }>;
    fronts: { kpis: [string, string]; ids: string[] }[];
  };
}
interface ErrorBody {
  detail: string;
  code: string;
  errors?: { path: string; message: string }[];
}
interface BatchBody {
  changed: number;
  skipped: number;
  changed_ids: string[];
  skipped_ids: string[];
}

const GREEDY = { algo_name: 'Greedy Slotting', dataset_key: 'example' };

describe.each(DIALECTS)('experiments over HTTP on %s', (dialect) => {
  let t: TestApp;
  let send: Send;
  let n = 0;
  const name = () => `exp ${++n}`;
  const post = <T>(path: string, body?: unknown) => send('POST', `/sessions/main${path}`, body) as Promise<Reply<T>>;
  const get = <T>(path: string) => send('GET', `/sessions/main${path}`) as Promise<Reply<T>>;
  const scenarioCount = async () => ((await get<unknown[]>('/scenarios')).body as unknown[]).length;

  /** Polls the experiment until `done` holds, within a deadline. */
  async function waitFor(id: string, done: (e: ExperimentBody) => boolean, within = 30_000): Promise<ExperimentBody> {
    let counts: ExperimentBody['counts'] | undefined;
    return until(() => `the experiment to settle (counts: ${JSON.stringify(counts)})`, async () => {
      const reply = await get<ExperimentBody>(`/experiments/${id}`);
      expect(reply.status).toBe(200);
      counts = reply.body.counts;
      return done(reply.body) && reply.body;
    }, { within });
  }

  beforeAll(async () => {
    t = await startTestApp(dialect);
    send = injectSender(t.app);
  });
  afterAll(() => t?.close());

  it('creates one scenario per combination times repeats, tagged by its values, and lists them by the experiment filter', async () => {
    const experimentName = name();
    const created = await post<ExperimentBody>('/experiments', {
      name: experimentName,
      ...GREEDY,
      axes: { 'algo_params.depot_x': { from: 0, to: 10, steps: 3 }, 'algo_params.respect_zones': [true, false] },
      repeats: 2,
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: experimentName, size: 12, axes: { 'algo_params.depot_x': [0, 5, 10], 'algo_params.respect_zones': [true, false] } });
    const page = await get<{ items: { tag: string; status: string; algorithm: { parameters: { name: string; value: unknown }[] } }[] }>(
      `/scenarios?experiment=${created.body.id}&limit=100`,
    );
    const tags = [0, 5, 10].flatMap((x) => [true, false].flatMap((zones) => [1, 2].map((rep) => `${experimentName}/depot_x=${x} · respect_zones=${zones} · rep ${rep}`)));
    expect(page.body.items.map((s) => s.tag)).toEqual(tags);
    expect(page.body.items.every((s) => s.status === 'CREATED')).toBe(true);
    const depots = page.body.items.map((s) => s.algorithm.parameters.find((p) => p.name === 'depot_x')!.value);
    expect(depots).toEqual([0, 0, 0, 0, 5, 5, 5, 5, 10, 10, 10, 10]);
    const detail = await get<ExperimentBody>(`/experiments/${created.body.id}`);
    expect(detail.body.counts).toEqual({ CREATED: 12, QUEUED: 0, PROCESSING: 0, COMPLETE: 0, FAILED: 0 });
    expect(detail.body.summary).toBeNull();
  });

  it('runs an experiment to the end and summarizes it per axis value, best and non-dominated', async () => {
    const created = await post<ExperimentBody>('/experiments', {
      name: name(),
      ...GREEDY,
      axes: { 'algo_params.depot_x': [0, 30], 'algo_params.respect_zones': [true, false] },
      run: true,
    });
    expect(created.status).toBe(201);
    const done = await waitFor(created.body.id, (e) => e.counts.COMPLETE! + e.counts.FAILED! === 4);
    expect(done.counts.COMPLETE).toBe(4);
    expect(done.progress).toBe(1);
    const summary = done.summary!;
    expect(summary.axes.map((a) => a.path)).toEqual(['algo_params.depot_x', 'algo_params.respect_zones']);
    const travel = summary.axes[0]!.values.map((v) => v.kpis['Travel Distance']!);
    expect(travel.map((s) => s.count)).toEqual([2, 2]);
    for (const s of travel) expect(s.min).toBeLessThanOrEqual(s.mean);
    expect(Object.keys(summary.best)).toContain('Travel Distance');
    expect(summary.fronts.length).toBeGreaterThan(0);
    for (const f of summary.fronts) expect(f.ids.length).toBeGreaterThan(0);
    const csv = await t.app.inject({ method: 'GET', url: `/api/v1/sessions/main/experiments/${created.body.id}/results?format=csv` });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toContain('text/csv');
    const lines = csv.body.trim().split('\r\n');
    expect(lines[0]).toContain('id,tag,status,algo_params.depot_x,algo_params.respect_zones,Travel Distance');
    expect(lines).toHaveLength(5);
    const json = await get<{ status: string; kpis: Record<string, number | null> }[]>(`/experiments/${created.body.id}/results`);
    expect(json.body).toHaveLength(4);
    expect(json.body.every((r) => r.status === 'COMPLETE' && typeof r.kpis['Travel Distance'] === 'number')).toBe(true);
    const xlsx = await t.app.inject({ method: 'GET', url: `/api/v1/sessions/main/experiments/${created.body.id}/results?format=xlsx` });
    expect(xlsx.statusCode).toBe(200);
    expect(xlsx.rawPayload.subarray(0, 2).toString()).toBe('PK');
    // The summary is computed from the COMPLETE scenarios as they are now: a reset leaves one out.
    const best = summary.best['Travel Distance']!;
    expect((await post(`/scenarios/${best.id}/reset`)).status).toBe(200);
    const fewer = await waitFor(created.body.id, (e) => e.counts.COMPLETE === 3);
    expect(fewer.summary!.axes[0]!.values.reduce((sum, v) => sum + v.kpis['Travel Distance']!.count, 0)).toBe(3);
    expect(fewer.summary!.fronts.every((f) => !f.ids.includes(best.id))).toBe(true);
    expect(fewer.summary!.best['Travel Distance']?.id).not.toBe(best.id);
  });

  it('exports the results for people: labelled columns with units, rounded KPIs, repeat and seed', async () => {
    const created = await post<ExperimentBody>('/experiments', { name: name(), ...GREEDY, axes: { 'algo_params.depot_x': [0.1 + 0.2, 7] }, repeats: 2, run: true });
    expect(created.status).toBe(201);
    await waitFor(created.body.id, (e) => e.counts.COMPLETE! + e.counts.FAILED! === 4);
    const url = `/api/v1/sessions/main/experiments/${created.body.id}/results`;
    const csv = await t.app.inject({ method: 'GET', url: `${url}?format=csv&style=readable` });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-disposition']).toContain('_readable.csv');
    const [header, ...rows] = csv.body.trim().split('\r\n').map((line) => line.split(','));
    expect(header!.slice(0, 5)).toEqual(['Scenario', 'Status', 'Repeat', 'Seed', 'Depot x']);
    expect(header).toContain('Travel Distance (m)');
    expect(rows.map((r) => [r[1], r[2], r[4]])).toEqual([
      ['COMPLETE', '1', '0.3'],
      ['COMPLETE', '2', '0.3'],
      ['COMPLETE', '1', '7'],
      ['COMPLETE', '2', '7'],
    ]);
    expect(rows.map((r) => r[0])).toEqual([1, 2, 1, 2].map((rep, i) => `${created.body.name}/depot_x=${i < 2 ? 0.3 : 7} · rep ${rep}`));
    for (const r of rows) expect(r[3]).toMatch(/^\d+$/);
    const travel = header!.indexOf('Travel Distance (m)');
    for (const r of rows) expect(r[travel]).toMatch(/^\d+(\.\d{1,2})?$/);
    // The machine export keeps the API's names and the stored values.
    const machine = await t.app.inject({ method: 'GET', url: `${url}?format=csv` });
    expect(machine.body.split('\r\n')[0]).toMatch(/^id,tag,status,algo_params\.depot_x,Travel Distance/);
    expect(machine.body.split('\r\n')[1]).toContain(`,${0.1 + 0.2},`);
    expect((await t.app.inject({ method: 'GET', url: `${url}?format=xlsx&style=readable` })).statusCode).toBe(200);
    const refused = await t.app.inject({ method: 'GET', url: `${url}?style=readable` });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ code: 'QUERY_INVALID' });
  });

  it('names every scenario of a front of hundreds (read for the whole experiment at once)', async () => {
    // Instant gives every run the same KPI values: each of its 510 scenarios is on every front.
    const created = await post<ExperimentBody>('/experiments', { name: name(), algo_name: 'Instant', dataset_key: 'example', axes: { dataset_key: ['example'] }, repeats: 510, run: true });
    expect(created.status).toBe(201);
    const done = await waitFor(created.body.id, (e) => e.counts.COMPLETE === 510, 120_000);
    const ids = ((await get<{ id: string }[]>(`/experiments/${created.body.id}/results`)).body as { id: string }[]).map((r) => r.id);
    expect(done.summary!.fronts.length).toBeGreaterThan(0);
    for (const f of done.summary!.fronts) expect(f.ids).toEqual(ids);
    // The first created wins a tie.
    for (const b of Object.values(done.summary!.best)) expect(b.id).toBe(ids[0]);
  }, 180_000);

  it('stores nothing when any combination is invalid, and lists every invalid value', async () => {
    const before = await scenarioCount();
    const reply = await post<ErrorBody>('/experiments', {
      name: name(),
      algo_name: 'Simulated Annealing Slotting',
      dataset_key: 'example',
      axes: { 'algo_params.cooling_rate': [0.9, 0.1, 2], 'algo_params.iterations': [10, 0] },
    });
    expect(reply.status).toBe(400);
    expect(reply.body.code).toBe('PARAMETER_INVALID');
    expect(reply.body.errors?.map((e) => e.path)).toEqual([
      'axes.algo_params.cooling_rate[1]',
      'axes.algo_params.cooling_rate[2]',
      'axes.algo_params.iterations[1]',
    ]);
    expect(await scenarioCount()).toBe(before);
    expect((await get<{ items: unknown[] }>('/experiments')).body.items.every((e) => (e as { name: string }).name !== `exp ${n}`)).toBe(true);
  });

  it.each([
    ['an unknown parameter path', { 'algo_params.nope': [1, 2] }, 400, 'PARAMETER_INVALID'],
    ['a path of another form', { 'other.x': [1] }, 400, 'EXPERIMENT_AXES_INVALID'],
    ['an empty axis', { 'algo_params.depot_x': [] }, 400, 'EXPERIMENT_AXES_INVALID'],
    ['steps below 2', { 'algo_params.depot_x': { from: 0, to: 1, steps: 1 } }, 400, 'EXPERIMENT_AXES_INVALID'],
    ['an unknown dataset', { dataset_key: ['example', 'no such dataset'] }, 404, 'DATASET_NOT_FOUND'],
    ['a grid over the limit', { 'algo_params.depot_x': { from: 0, to: 1, steps: 1000 }, 'algo_params.depot_y': { from: 0, to: 1, steps: 1000 } }, 413, 'EXPERIMENT_TOO_LARGE'],
    ['a grid of 10^9, refused without being built', { a: { from: 0, to: 1, steps: 1000 }, b: { from: 0, to: 1, steps: 1000 }, c: { from: 0, to: 1, steps: 1000 } }, 413, 'EXPERIMENT_TOO_LARGE'],
  ])('refuses %s with %i and stores nothing', async (_what, axes, status, code) => {
    const before = await scenarioCount();
    const reply = await post<ErrorBody>('/experiments', { name: name(), ...GREEDY, axes });
    expect(reply.status).toBe(status);
    expect(reply.body.code).toBe(code);
    expect(reply.body.detail).toEqual(expect.any(String));
    expect(await scenarioCount()).toBe(before);
  });

  it('refuses a bad body shape with 422', async () => {
    const reply = await post<ErrorBody>('/experiments', { name: name(), ...GREEDY, axes: { 'algo_params.depot_x': 3 } });
    expect(reply.status).toBe(422);
  });

  it('refuses a second experiment of the same name in the session with 409, storing nothing', async () => {
    const experimentName = name();
    expect((await post('/experiments', { name: experimentName, ...GREEDY, axes: { 'algo_params.depot_x': [1] } })).status).toBe(201);
    const before = await scenarioCount();
    const again = await post<ErrorBody>('/experiments', { name: experimentName, ...GREEDY, axes: { 'algo_params.depot_x': [1, 2] } });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('EXPERIMENT_NAME_TAKEN');
    expect(await scenarioCount()).toBe(before);
  });

  it('lists experiments a page at a time', async () => {
    const first = await get<{ items: { id: string }[]; next_cursor: string | null }>('/experiments?limit=1');
    expect(first.body.items).toHaveLength(1);
    expect(first.body.next_cursor).not.toBeNull();
    const second = await get<{ items: { id: string }[] }>(`/experiments?limit=1&cursor=${first.body.next_cursor}`);
    expect(second.body.items[0]!.id).not.toBe(first.body.items[0]!.id);
  });

  it('runs, cancels, resets and deletes an experiment, counting what changed and what was skipped', async () => {
    const created = await post<ExperimentBody>('/experiments', {
      name: name(),
      algo_name: 'Sleep',
      dataset_key: 'example',
      algo_params: { duration_ms: 600_000 },
      axes: { 'algo_params.duration_ms': [600_000, 599_999, 599_998] },
    });
    const id = created.body.id;
    expect((await post<BatchBody>(`/experiments/${id}/reset`)).body).toMatchObject({ changed: 0, skipped: 3 });
    expect((await post<BatchBody>(`/experiments/${id}/run`)).body).toMatchObject({ changed: 3, skipped: 0 });
    expect((await post<BatchBody>(`/experiments/${id}/run`)).body).toMatchObject({ changed: 0, skipped: 3 });
    expect((await post<BatchBody>(`/experiments/${id}/cancel`)).body).toMatchObject({ changed: 3, skipped: 0 });
    const cancelled = await waitFor(id, (e) => e.counts.FAILED === 3);
    expect(cancelled.counts.FAILED).toBe(3);
    expect((await post<BatchBody>(`/experiments/${id}/reset`)).body).toMatchObject({ changed: 3, skipped: 0 });
    const removed = await send('DELETE', `/sessions/main/experiments/${id}`);
    expect(removed.body).toMatchObject({ changed: 3 });
    expect((await get(`/experiments/${id}`)).status).toBe(404);
    expect((await get<{ items: unknown[] }>(`/scenarios?experiment=${id}`)).body.items).toHaveLength(0);
  });
});
