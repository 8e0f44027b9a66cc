import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScenarioView } from '../../src/scenarios/view.js';
import { injectSender, ScenarioClient, type Send } from '../fixtures/scenario-client.js';
import { DIALECTS } from '../support/dialects.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { until } from '../support/until.js';

describe.each(DIALECTS)('concurrent scenario requests on %s', (dialect) => {
  let t: TestApp;
  let send: Send;
  let main: ScenarioClient;
  beforeAll(async () => {
    t = await startTestApp(dialect, { workers: 2 });
    send = injectSender(t.app);
    main = new ScenarioClient(send, 'main');
  });
  afterAll(() => t?.close());

  /** A new session holding a copy of main's example dataset. */
  const newSession = async (name: string): Promise<ScenarioClient> => {
    const list = (await send('POST', '/sessions', { display_name: name })).body as { sessions: { id: string; display_name: string }[] };
    const id = list.sessions.find((s) => s.display_name === name)!.id;
    const form = (await send('GET', '/sessions/main/data/example')).body;
    expect((await send('POST', `/sessions/${id}/data/from-json`, form)).status).toBe(201);
    return new ScenarioClient(send, id);
  };

  it('gives exactly one 202 when 30 runs of one scenario race, the rest 409', async () => {
    const created = await main.created({ tag: 'raced run', algo_name: 'Instant' });
    const replies = await Promise.all(Array.from({ length: 30 }, () => main.run(created.id)));
    const codes = replies.map((r) => r.status);
    expect(codes.filter((c) => c === 202)).toHaveLength(1);
    expect(codes.filter((c) => c === 409)).toHaveLength(29);
    await main.waitFor(created.id);
  });

  it('gives exactly one 201 when 50 creates of one tag race, the rest 409', async () => {
    const replies = await Promise.all(Array.from({ length: 50 }, () => main.create({ tag: 'raced tag', algo_name: 'Instant' })));
    const codes = replies.map((r) => r.status);
    expect(codes.filter((c) => c === 201)).toHaveLength(1);
    expect(codes.filter((c) => c === 409)).toHaveLength(49);
    expect((await main.list()).body.filter((s) => s.tag === 'raced tag')).toHaveLength(1);
  });

  it('answers every one of concurrent resets of a finished scenario with 200 and ends CREATED', async () => {
    const scenario = await main.started({ tag: 'raced reset', algo_name: 'Instant' });
    await main.waitFor(scenario.id);
    const replies = await Promise.all(Array.from({ length: 20 }, () => main.reset(scenario.id)));
    expect(replies.map((r) => r.status)).toEqual(Array(20).fill(200));
    expect((await main.status(scenario.id)).body).toMatchObject({ status: 'CREATED', progress: 0 });
  });

  it('answers a run racing a delete with 202 or 404, and the scenario is gone afterwards', async () => {
    const created = await main.created({ tag: 'run vs delete', algo_name: 'Instant' });
    const [run, del] = await Promise.all([main.run(created.id), main.delete(created.id)]);
    expect([202, 404]).toContain(run.status);
    expect(del.status).toBe(204);
    expect((await main.get(created.id)).status).toBe(404);
  });

  it('never has two PROCESSING scenarios in one session while several sessions run', async () => {
    const sessions = [await newSession('parallel a'), await newSession('parallel b'), await newSession('parallel c')];
    const heads: ScenarioView[] = [];
    for (const session of sessions) {
      // A long head keeps each session busy until it is deleted, so parallel sessions are certain to show.
      heads.push(await session.started({ tag: 'head', algo_name: 'Sleep', algo_params: { duration_ms: 600_000 } }));
      for (let i = 0; i < 3; i++) await session.started({ tag: `run ${i}`, algo_name: 'Sleep', algo_params: { duration_ms: 20 } });
    }
    const processingCounts = async () => {
      const lists = await Promise.all(sessions.map((s) => s.list()));
      const counts = lists.map((l) => l.body.filter((s) => s.status === 'PROCESSING').length);
      for (const count of counts) expect(count).toBeLessThanOrEqual(1);
      return { lists, counts };
    };
    // Two workers: two sessions process at once while the third waits.
    await until('two sessions processing at once', async () => (await processingCounts()).counts.filter((c) => c === 1).length >= 2, { every: 5 });
    for (const [i, session] of sessions.entries()) expect((await session.delete(heads[i]!.id)).status).toBe(204);
    await until('every run to complete', async () => (await processingCounts()).lists.every((l) => l.body.every((s) => s.status === 'COMPLETE')), { every: 5 });
    // Within a session: FIFO, each run starting after the previous one finished.
    for (const session of sessions) {
      const done = (await session.list()).body;
      expect(done.map((s) => s.tag)).toEqual(['run 0', 'run 1', 'run 2']);
      for (let i = 1; i < done.length; i++) {
        expect(Date.parse(done[i]!.started_at!)).toBeGreaterThanOrEqual(Date.parse(done[i - 1]!.finished_at!));
      }
    }
  });

  it('keeps answering requests while a CPU-bound run computes in a worker thread', async () => {
    const scenario = await main.started({ tag: 'busy', algo_name: 'Busy', algo_params: { duration_ms: 600_000 } });
    await main.waitFor(scenario.id, ['PROCESSING']);
    for (let i = 0; i < 20; i++) {
      expect((await main.status(scenario.id)).body.status).toBe('PROCESSING');
      expect((await send('GET', '/health')).status).toBe(200);
    }
    expect((await main.delete(scenario.id)).status).toBe(204);
    expect((await main.get(scenario.id)).status).toBe(404);
  });
});
