import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StatusView } from '../../src/scenarios/view.js';
import { detailOf, injectSender, ScenarioClient } from '../fixtures/scenario-client.js';
import { DIALECTS } from '../support/dialects.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

const LONG = { algo_name: 'Sleep', algo_params: { duration_ms: 600_000 } };

describe.each(DIALECTS)('the scenario life cycle over HTTP on %s', (dialect) => {
  let t: TestApp;
  let main: ScenarioClient;
  let counter = 0;
  const tag = () => `scenario ${++counter}`;
  beforeAll(async () => {
    t = await startTestApp(dialect);
    main = new ScenarioClient(injectSender(t.app), 'main');
  });
  afterAll(() => t?.close());

  it('CREATED -> run: answers 202 with the scenario QUEUED at once', async () => {
    const created = await main.created({ tag: tag(), ...LONG });
    const res = await main.run(created.id);
    expect(res.status).toBe(202);
    expect(res.body).toMatchObject({ id: created.id, status: 'QUEUED', result: null, progress: 0 });
    expect((await main.delete(created.id)).status).toBe(204);
  });

  it('QUEUED -> PROCESSING -> COMPLETE: fills result and KPI values, with progress 1.0', async () => {
    const scenario = await main.started({ tag: tag(), algo_name: 'As-Is Slotting' });
    const seen: StatusView[] = [];
    expect(await main.waitFor(scenario.id, ['COMPLETE', 'FAILED'], seen)).toMatchObject({ status: 'COMPLETE', progress: 1 });
    const done = (await main.get(scenario.id)).body;
    expect(done.result).not.toBeNull();
    expect(done.error).toBeNull();
    expect(done.started_at).not.toBeNull();
    expect(done.finished_at).not.toBeNull();
    for (const kpi of Object.values(done.kpis)) expect(typeof kpi.value).toBe('number');
    const order = ['QUEUED', 'PROCESSING', 'COMPLETE'];
    const indices = seen.map((s) => order.indexOf(s.status));
    expect(indices).toEqual([...indices].sort((a, b) => a - b));
  });

  it('reports progress that never decreases and is 1.0 at COMPLETE', async () => {
    const scenario = await main.started({ tag: tag(), algo_name: 'Sleep', algo_params: { duration_ms: 400 } });
    const seen: StatusView[] = [];
    await main.waitFor(scenario.id, ['COMPLETE'], seen);
    const progress = seen.map((s) => s.progress);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    expect(progress.every((p) => p >= 0 && p <= 1)).toBe(true);
    expect(progress.at(-1)).toBe(1);
  });

  it('PROCESSING -> FAILED: the run response is unaffected and the failure shows in status and error', async () => {
    const created = await main.created({ tag: tag(), algo_name: 'Fail', algo_params: { mode: 'throw_string' } });
    expect((await main.run(created.id)).status).toBe(202);
    expect((await main.waitFor(created.id)).status).toBe('FAILED');
    const failed = (await main.get(created.id)).body;
    expect(failed.error?.message).toContain('threw a string on purpose');
    expect(failed.result).toBeNull();
    expect(Object.values(failed.kpis).every((k) => k.value === null)).toBe(true);
  });

  it.each([
    ['raise', 'raised on purpose'],
    ['no_result', 'no result'],
    ['kpi_error', 'KPI'],
    ['nan_kpi', 'NaN'],
  ])('fails a Fail run in mode %s with a message', async (mode, message) => {
    const scenario = await main.started({ tag: tag(), algo_name: 'Fail', algo_params: { mode } });
    expect((await main.waitFor(scenario.id)).status).toBe('FAILED');
    expect((await main.get(scenario.id)).body.error?.message).toContain(message);
  });

  it('COMPLETE -> reset: answers 200 CREATED with null result and KPIs and progress 0', async () => {
    const scenario = await main.started({ tag: tag(), algo_name: 'Instant' });
    await main.waitFor(scenario.id);
    const res = await main.reset(scenario.id);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'CREATED', result: null, progress: 0, error: null, started_at: null, finished_at: null });
    expect(Object.values(res.body.kpis).every((k) => k.value === null)).toBe(true);
    expect(await main.status(scenario.id)).toEqual({ status: 200, body: { id: scenario.id, tag: scenario.tag, status: 'CREATED', progress: 0 } });
  });

  it('FAILED -> reset: answers 200 CREATED with the error cleared', async () => {
    const scenario = await main.started({ tag: tag(), algo_name: 'Fail' });
    await main.waitFor(scenario.id);
    const res = await main.reset(scenario.id);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'CREATED', error: null, result: null, progress: 0 });
  });

  it('CREATED -> reset: a no-op answering 200 with the current scenario', async () => {
    const created = await main.created({ tag: tag(), algo_name: 'Instant' });
    const res = await main.reset(created.id);
    expect(res).toEqual({ status: 200, body: created });
  });

  it('re-runs a finished scenario after a reset', async () => {
    const scenario = await main.started({ tag: tag(), algo_name: 'Instant' });
    await main.waitFor(scenario.id);
    expect((await main.run(scenario.id)).status).toBe(409);
    await main.reset(scenario.id);
    expect((await main.run(scenario.id)).status).toBe(202);
    expect((await main.waitFor(scenario.id)).status).toBe('COMPLETE');
  });

  it.each(['COMPLETE', 'FAILED'])('rejects run of a %s scenario with 409 and a reason', async (status) => {
    const scenario = await main.started({ tag: tag(), algo_name: status === 'COMPLETE' ? 'Instant' : 'Fail' });
    expect((await main.waitFor(scenario.id)).status).toBe(status);
    const res = await main.run(scenario.id);
    expect(res.status).toBe(409);
    expect(detailOf(res)).toContain('reset');
  });

  it('rejects run and reset of a QUEUED scenario with 409, and of a PROCESSING one', async () => {
    const session = (await main.send('POST', '/sessions', { display_name: `queue ${tag()}` })).body as { sessions: { id: string }[] };
    const sid = session.sessions.at(-1)!.id;
    await main.send('POST', `/sessions/${sid}/data/from-json`, (await main.send('GET', '/sessions/main/data/example')).body);
    const other = new ScenarioClient(main.send, sid);
    const running = await other.started({ tag: 'running', ...LONG });
    const queued = await other.started({ tag: 'queued', ...LONG });
    await other.waitFor(running.id, ['PROCESSING']);
    expect((await other.status(queued.id)).body.status).toBe('QUEUED');
    for (const id of [running.id, queued.id]) {
      expect((await other.run(id)).status).toBe(409);
      expect((await other.reset(id)).status).toBe(409);
    }
    expect((await other.status(running.id)).body.status).toBe('PROCESSING');
    expect((await other.status(queued.id)).body.status).toBe('QUEUED');
    expect((await other.delete(running.id)).status).toBe(204);
    expect((await other.delete(queued.id)).status).toBe(204);
  });

  it('answers status with exactly id, tag, status and progress', async () => {
    const created = await main.created({ tag: tag(), algo_name: 'Instant' });
    const res = await main.status(created.id);
    expect(res).toEqual({ status: 200, body: { id: created.id, tag: created.tag, status: 'CREATED', progress: 0 } });
  });

  it('names the processing scenario of a session, and answers JSON null when idle', async () => {
    const idle = await t.app.inject({ method: 'GET', url: '/api/v1/sessions/main/processing' });
    expect(idle.statusCode).toBe(200);
    expect(idle.body).toBe('null');
    const scenario = await main.started({ tag: tag(), ...LONG });
    await main.waitFor(scenario.id, ['PROCESSING']);
    const busy = await main.processing();
    expect(busy.status).toBe(200);
    expect(busy.body).toMatchObject({ id: scenario.id, status: 'PROCESSING' });
    await main.delete(scenario.id);
    expect((await main.processing()).body).toBeNull();
  });

  it('deletes a CREATED scenario with 204 and no body, then answers 404 for it', async () => {
    const created = await main.created({ tag: tag(), algo_name: 'Instant' });
    const res = await t.app.inject({ method: 'DELETE', url: `/api/v1/sessions/main/scenarios/${created.id}` });
    expect(res.statusCode).toBe(204);
    expect(res.body).toBe('');
    expect((await main.get(created.id)).status).toBe(404);
    expect((await main.delete(created.id)).status).toBe(404);
  });

  it('deletes a PROCESSING scenario, which never completes afterwards', async () => {
    const scenario = await main.started({ tag: tag(), ...LONG });
    await main.waitFor(scenario.id, ['PROCESSING']);
    expect((await main.delete(scenario.id)).status).toBe(204);
    // The session goes on with the next run; the deleted scenario stays gone.
    const next = await main.started({ tag: tag(), algo_name: 'Instant' });
    expect((await main.waitFor(next.id)).status).toBe('COMPLETE');
    expect((await main.get(scenario.id)).status).toBe(404);
    expect((await main.list()).body.map((s) => s.id)).not.toContain(scenario.id);
  });

  it('deletes a QUEUED scenario, which never runs', async () => {
    const blocker = await main.started({ tag: tag(), ...LONG });
    const queued = await main.started({ tag: tag(), algo_name: 'Instant' });
    const after = await main.started({ tag: tag(), algo_name: 'Instant' });
    expect((await main.status(queued.id)).body.status).toBe('QUEUED');
    expect((await main.delete(queued.id)).status).toBe(204);
    expect((await main.delete(blocker.id)).status).toBe(204);
    expect((await main.waitFor(after.id)).status).toBe('COMPLETE');
    expect((await main.get(queued.id)).status).toBe(404);
  });

  it('answers 409 when deleting a dataset that a scenario uses', async () => {
    await main.created({ tag: tag(), algo_name: 'Instant' });
    expect((await main.send('DELETE', '/sessions/main/data/example')).status).toBe(409);
  });
});
