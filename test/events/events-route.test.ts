import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/dialects.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { connectSse } from './support/sse-client.js';

describe.each(DIALECTS)('GET /sessions/{sid}/events on %s', (dialect) => {
  let t: TestApp;
  let base: string;
  beforeAll(async () => {
    t = await startTestApp(dialect);
    const address = await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `${address}/api/v1`;
  });
  afterAll(() => t?.close());

  const api = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown) =>
    t.app.inject({ method, url: `/api/v1${url}`, ...(payload === undefined ? {} : { payload: payload as object }) });

  it.each([
    ['an unknown session', '/sessions/nope/events', {}, 404],
    ['a Last-Event-ID that is not an id', '/sessions/main/events', { 'last-event-id': 'abc' }, 400],
    ['a negative Last-Event-ID', '/sessions/main/events', { 'last-event-id': '-1' }, 400],
    ['a since that is not an id', '/sessions/main/events?since=1.5', {}, 400],
  ])('answers %s with a %i and a detail', async (_case, url, headers, status) => {
    const res = await t.app.inject({ method: 'GET', url: `/api/v1${url}`, headers });
    expect(res.statusCode).toBe(status);
    expect(typeof res.json<{ detail: string }>().detail).toBe('string');
  });

  it('streams dataset, scenario and session events with their payload, and ends after session.deleted', async () => {
    await api('POST', '/sessions', { display_name: 'lifecycle' });
    const stream = await connectSse(`${base}/sessions/lifecycle/events`);
    const form = (await api('GET', '/sessions/main/data/example')).body;
    expect((await t.app.inject({ method: 'POST', url: '/api/v1/sessions/lifecycle/data/from-json', headers: { 'content-type': 'application/json' }, payload: form })).statusCode).toBe(201);
    const created = (await api('POST', '/sessions/lifecycle/scenarios', { tag: 'one', dataset_key: 'example', algo_name: 'Instant' })).json<{ id: string }>();
    await api('POST', `/sessions/lifecycle/scenarios/${created.id}/run`);
    await stream.waitFor((events) => events.some((e) => e.type === 'scenario.completed'), 30_000, 'the completion');
    expect((await api('POST', `/sessions/lifecycle/scenarios/${created.id}/reset`)).statusCode).toBe(200);
    expect((await api('DELETE', `/sessions/lifecycle/scenarios/${created.id}`)).statusCode).toBe(204);
    expect((await api('POST', '/sessions/lifecycle/data/example/derive', { new_key: 'copy' })).statusCode).toBe(201);
    expect((await api('DELETE', '/sessions/lifecycle/data/copy')).statusCode).toBe(204);
    const renamed = (await api('PATCH', '/sessions/lifecycle', { display_name: 'lifecycle 2' })).json<{ id: string }>();
    expect((await api('DELETE', `/sessions/${renamed.id}`)).statusCode).toBe(200);
    await stream.ended; // the server ends the stream after session.deleted

    const types = stream.events.map((e) => e.type);
    expect(types.filter((type) => type !== 'scenario.progress')).toEqual([
      'dataset.created',
      'scenario.created',
      'scenario.queued',
      'scenario.started',
      'scenario.completed',
      'scenario.reset',
      'scenario.deleted',
      'dataset.created',
      'dataset.deleted',
      'session.renamed',
      'session.deleted',
    ]);
    for (const e of stream.events) {
      expect(e.data.id).toBe(e.id);
      expect(e.data.type).toBe(e.type);
      expect(e.data.session_id).toBe(renamed.id);
      expect(new Date(e.data.at as string).toISOString()).toBe(e.data.at);
    }
    const of = (type: string) => stream.events.find((e) => e.type === type)!.data;
    expect(of('scenario.created')).toMatchObject({ scenario_id: created.id, tag: 'one', status: 'CREATED' });
    expect(of('scenario.completed')).toMatchObject({ scenario_id: created.id, tag: 'one', status: 'COMPLETE', progress: 1 });
    expect(of('scenario.reset')).toMatchObject({ status: 'CREATED', progress: 0 });
    expect(of('scenario.deleted')).toMatchObject({ scenario_id: created.id, tag: 'one' });
    expect(of('dataset.deleted')).toMatchObject({ dataset_key: 'copy' });
    expect(of('session.renamed')).toMatchObject({ display_name: 'lifecycle 2' });
  });

  it('sends the progress a run reported last before its completed event, for every run', async () => {
    const stream = await connectSse(`${base}/sessions/main/events`);
    const runs: { id: string; last: number }[] = [];
    for (const [i, duration] of [250, 400, 550, 700].entries()) {
      const res = await api('POST', '/sessions/main/scenarios', { tag: `reporting ${i}`, dataset_key: 'example', algo_name: 'Sleep', algo_params: { duration_ms: duration } });
      expect(res.statusCode, res.body).toBe(201);
      const created = res.json<{ id: string }>();
      await api('POST', `/sessions/main/scenarios/${created.id}/run`);
      // Sleep reports every 20 ms; its last report is its end (1).
      runs.push({ id: created.id, last: 1 });
    }
    const completed = (id: string) => (events: readonly { type: string; data: { scenario_id?: string } }[]) =>
      events.some((e) => e.type === 'scenario.completed' && e.data.scenario_id === id);
    for (const run of runs) await stream.waitFor(completed(run.id), 100_000, `the completion of ${run.id}`);
    stream.close();
    for (const run of runs) {
      const mine = stream.events.filter((e) => e.data.scenario_id === run.id);
      const end = mine.findIndex((e) => e.type === 'scenario.completed');
      const progress = mine.slice(0, end).filter((e) => e.type === 'scenario.progress');
      expect(progress.at(-1)?.data.progress, `the last progress of ${run.id}`).toBe(run.last);
      expect(mine.slice(end + 1).filter((e) => e.type === 'scenario.progress')).toEqual([]);
    }
  }, 120_000);

  it('reports a failed run with its message, and ends open streams when the app closes', async () => {
    const stream = await connectSse(`${base}/sessions/main/events`);
    const created = (await api('POST', '/sessions/main/scenarios', { tag: 'doomed', dataset_key: 'example', algo_name: 'Fail' })).json<{ id: string }>();
    await api('POST', `/sessions/main/scenarios/${created.id}/run`);
    await stream.waitFor((events) => events.some((e) => e.type === 'scenario.failed'), 30_000, 'the failure');
    expect(stream.events.find((e) => e.type === 'scenario.failed')!.data).toMatchObject({
      scenario_id: created.id,
      tag: 'doomed',
      status: 'FAILED',
      message: expect.stringContaining('raised on purpose'),
    });
    // Closing the app must not wait for the open stream: it is ended for the client to resume elsewhere.
    await t.app.close();
    await stream.ended;
  });
});
