import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunEventMap } from '../../src/executor/events.js';
import { detailOf, injectSender, ScenarioClient, type Send } from '../fixtures/scenario-client.js';
import { DIALECTS } from '../support/dialects.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

const LONG_SLEEP = { algo_name: 'Sleep', algo_params: { duration_ms: 600_000 } };
const CANCELLED = { message: 'cancelled', code: 'CANCELLED' };

describe.each(DIALECTS)('POST .../scenarios/{id}/cancel on %s', (dialect) => {
  let t: TestApp;
  let send: Send;
  const failed: RunEventMap['run:failed'][] = [];
  beforeAll(async () => {
    t = await startTestApp(dialect, { workers: 1 });
    send = injectSender(t.app);
    t.runtime.services.executor.events.on('run:failed', (event) => failed.push(event));
  });
  afterAll(() => t?.close());

  /** A new session holding main's example dataset. */
  const newSession = async (name: string): Promise<ScenarioClient> => {
    const list = (await send('POST', '/sessions', { display_name: name })).body as { sessions: { id: string; display_name: string }[] };
    const id = list.sessions.find((s) => s.display_name === name)!.id;
    const form = (await send('GET', '/sessions/main/data/example')).body;
    expect((await send('POST', `/sessions/${id}/data/from-json`, form)).status).toBe(201);
    return new ScenarioClient(send, id);
  };
  const cancel = (client: ScenarioClient, id: string) => send('POST', `/sessions/${client.sid}/scenarios/${id}/cancel`);

  it('ends a QUEUED and a PROCESSING scenario FAILED with code CANCELLED, keeps both, and the session moves on', async () => {
    const s = await newSession('cancel both');
    const running = await s.started({ tag: 'running', ...LONG_SLEEP });
    const queued = await s.started({ tag: 'queued', algo_name: 'Instant' });
    await s.waitFor(running.id, ['PROCESSING']);

    const first = await cancel(s, queued.id);
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ id: queued.id, status: 'FAILED', error: CANCELLED, result: null });
    const second = await cancel(s, running.id);
    expect(second.status).toBe(200);
    expect(second.body).toMatchObject({ id: running.id, status: 'FAILED', error: CANCELLED });

    // Kept, and stays as cancelled: the aborted run writes nothing afterwards.
    const next = await s.started({ tag: 'next', algo_name: 'Instant' });
    expect((await s.waitFor(next.id)).status).toBe('COMPLETE');
    for (const id of [queued.id, running.id]) expect((await s.get(id)).body).toMatchObject({ status: 'FAILED', error: CANCELLED });
    expect((await s.list()).body.map((x) => x.tag)).toEqual(['running', 'queued', 'next']);
    expect(failed.filter((e) => e.code === 'CANCELLED').map((e) => e.scenarioId)).toEqual(expect.arrayContaining([queued.id, running.id]));
  });

  it('answers 409 unless the scenario is QUEUED or PROCESSING, and changes nothing', async () => {
    const s = await newSession('cancel refused');
    const created = await s.created({ tag: 'created', algo_name: 'Instant' });
    const done = await s.started({ tag: 'done', algo_name: 'Instant' });
    await s.waitFor(done.id);
    for (const id of [created.id, done.id]) {
      const before = (await s.get(id)).body;
      const reply = await cancel(s, id);
      expect(reply.status).toBe(409);
      expect(detailOf(reply)).toContain('only a QUEUED or PROCESSING scenario can be cancelled');
      expect((await s.get(id)).body).toEqual(before);
    }
    const running = await s.started({ tag: 'twice', ...LONG_SLEEP });
    expect((await cancel(s, running.id)).status).toBe(200);
    expect((await cancel(s, running.id)).status).toBe(409);
  });

  it('answers 404 for an unknown scenario or session', async () => {
    const s = await newSession('cancel unknown');
    const unknownScenario = await cancel(s, '00000000-0000-0000-0000-000000000000');
    expect(unknownScenario.status).toBe(404);
    expect(detailOf(unknownScenario)).toContain('not found');
    const created = await s.created({ tag: 'elsewhere', algo_name: 'Instant' });
    expect((await send('POST', `/sessions/no-such-session/scenarios/${created.id}/cancel`)).status).toBe(404);
    expect((await send('POST', `/sessions/main/scenarios/${created.id}/cancel`)).status).toBe(404);
  });

  it('gives exactly one 200 when 20 cancels of one running scenario race, the rest 409', async () => {
    const s = await newSession('cancel raced');
    const running = await s.started({ tag: 'raced', ...LONG_SLEEP });
    await s.waitFor(running.id, ['PROCESSING']);
    const replies = await Promise.all(Array.from({ length: 20 }, () => cancel(s, running.id)));
    const codes = replies.map((r) => r.status);
    expect(codes.filter((c) => c === 200)).toHaveLength(1);
    expect(codes.filter((c) => c === 409)).toHaveLength(19);
    expect((await s.get(running.id)).body).toMatchObject({ status: 'FAILED', error: CANCELLED });
  });

  it('documents the route and the error code in the OpenAPI document', async () => {
    const doc = (await injectSender(t.app, '')('GET', '/openapi.json')).body as { paths: Record<string, { post?: unknown }> };
    expect(doc.paths['/sessions/{sid}/scenarios/{id}/cancel']?.post).toBeDefined();
  });
});

// The two dialects side by side: each test mostly waits out the limit.
describe.concurrent.each(DIALECTS)('the run time limit on %s', (dialect) => {
  let t: TestApp;
  let s: ScenarioClient;
  beforeAll(async () => {
    // The limit counts from the claim, and the first run also starts the worker thread (slow on a
    // busy machine): the limit leaves the scenario after the endless one ample time.
    t = await startTestApp(dialect, { workers: 1, run_time_limit: '15s' });
    s = new ScenarioClient(injectSender(t.app), 'main');
  });
  afterAll(() => t?.close());

  it('ends a run past its limit FAILED with code TIME_LIMIT, and the session runs its next scenario', async ({ expect }) => {
    const endless = await s.started({ tag: 'endless', ...LONG_SLEEP });
    const next = await s.started({ tag: 'after the limit', algo_name: 'Instant' });
    expect((await s.waitFor(endless.id)).status).toBe('FAILED');
    expect((await s.get(endless.id)).body.error).toEqual({ message: 'the run exceeded its time limit of 15 s and was stopped', code: 'TIME_LIMIT' });
    expect((await s.waitFor(next.id)).status).toBe('COMPLETE');
    expect((await s.get(next.id)).body.error).toBeNull();
  });
});
