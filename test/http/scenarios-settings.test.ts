import { afterEach, describe, expect, it } from 'vitest';
import { injectSender, ScenarioClient, type Send } from '../fixtures/scenario-client.js';
import { DIALECTS } from '../support/dialects.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

describe.each(DIALECTS)('scenarios with sessions and settings on %s', (dialect) => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });
  const start = async (settings: Parameters<typeof startTestApp>[1] = {}) => {
    t = await startTestApp(dialect, settings);
    const send = injectSender(t.app);
    return { send, main: new ScenarioClient(send, 'main') };
  };
  const sessionId = async (send: Send, name: string) =>
    ((await send('GET', '/sessions')).body as { sessions: { id: string; display_name: string }[] }).sessions.find((s) => s.display_name === name)!.id;

  it('with autorun, create enqueues at once and the scenario completes', async () => {
    const { main } = await start({ autorun: true });
    const res = await main.create({ tag: 'auto', algo_name: 'Instant' });
    expect(res.status).toBe(201);
    expect(['QUEUED', 'PROCESSING', 'COMPLETE']).toContain(res.body.status);
    expect((await main.waitFor(res.body.id)).status).toBe('COMPLETE');
  });

  it('with autocreate, a newly stored dataset spawns "<key> [auto]" once, and the dataset operation still succeeds', async () => {
    const { send, main } = await start({ autocreate: true, default_algo: 'Instant', autorun: true });
    expect((await send('POST', '/sessions/main/data/example/derive', { new_key: 'copy' })).status).toBe(201);
    const spawned = (await main.list()).body.filter((s) => s.tag === 'copy [auto]');
    expect(spawned).toHaveLength(1);
    expect(spawned[0]).toMatchObject({ input_data_id: 'copy', algorithm: { name: 'Instant' } });
    expect((await main.waitFor(spawned[0]!.id)).status).toBe('COMPLETE');
    // Storing the same key again keeps the one scenario.
    const form = (await send('GET', '/sessions/main/data/copy')).body;
    expect((await send('POST', '/sessions/main/data/from-json', form)).status).toBe(201);
    expect((await main.list()).body.filter((s) => s.tag === 'copy [auto]')).toHaveLength(1);
  });

  it("with autocreate, a branch's derived dataset spawns no scenario beside the branch", async () => {
    const { send, main } = await start({ autocreate: true, default_algo: 'Instant' });
    const base = await main.created({ tag: 'base', algo_name: 'Instant' });
    const before = (await main.list()).body.map((s) => s.tag);
    const edits = [{ table: 'sku_data', update: { where: {}, scale: { daily_picks: 1.1 } } }];
    const reply = await send('POST', `/sessions/main/scenarios/${base.id}/branch`, { tag: 'busier', edits });
    expect(reply.status).toBe(201);
    expect((await main.list()).body.map((s) => s.tag)).toEqual([...before, 'busier']);
  });

  it('without autocreate, storing a dataset spawns no scenario', async () => {
    const { send, main } = await start({ default_algo: 'Instant' });
    expect((await send('POST', '/sessions/main/data/example/derive', { new_key: 'copy' })).status).toBe(201);
    expect((await main.list()).body).toEqual([]);
  });

  it('copies scenarios with a session: finished ones keep their run, queued and running ones become CREATED', async () => {
    const { send, main } = await start({ workers: 1 });
    const complete = await main.started({ tag: 'complete', algo_name: 'Instant' });
    await main.waitFor(complete.id);
    const failed = await main.started({ tag: 'failed', algo_name: 'Fail' });
    await main.waitFor(failed.id);
    const running = await main.started({ tag: 'running', algo_name: 'Sleep', algo_params: { duration_ms: 600_000 } });
    const queued = await main.started({ tag: 'queued', algo_name: 'Instant' });
    await main.waitFor(running.id, ['PROCESSING']);
    const created = await main.created({ tag: 'created', algo_name: 'Instant' });

    expect((await send('POST', '/sessions/main/copy', { new_display_name: 'copy' })).status).toBe(201);
    const copy = new ScenarioClient(send, await sessionId(send, 'copy'));
    const copied = (await copy.list()).body;
    expect(copied.map((s) => [s.tag, s.status])).toEqual([
      ['complete', 'COMPLETE'],
      ['failed', 'FAILED'],
      ['running', 'CREATED'],
      ['queued', 'CREATED'],
      ['created', 'CREATED'],
    ]);
    const source = (await main.list()).body;
    for (const scenario of copied) expect(source.map((s) => s.id)).not.toContain(scenario.id);
    const original = (await main.get(complete.id)).body;
    expect(copied[0]).toMatchObject({ result: original.result, kpis: original.kpis, progress: 1, finished_at: original.finished_at });
    expect(copied[1]!.error?.message).toBe((await main.get(failed.id)).body.error?.message);
    expect(copied[2]).toMatchObject({ result: null, progress: 0, started_at: null, error: null });
    // The source is untouched: still running and queued.
    expect((await main.status(running.id)).body.status).toBe('PROCESSING');
    expect((await main.status(queued.id)).body.status).toBe('QUEUED');
    expect((await main.status(created.id)).body.status).toBe('CREATED');
    // The copies are ordinary scenarios: they run in their own session (once the one worker is free).
    expect((await main.delete(running.id)).status).toBe(204);
    expect((await copy.run(copied[3]!.id)).status).toBe(202);
    expect((await copy.waitFor(copied[3]!.id)).status).toBe('COMPLETE');
  });

  it('deleting a session cancels its running and queued scenarios; other sessions go on', async () => {
    const { send, main } = await start({ workers: 2 });
    expect((await send('POST', '/sessions/main/copy', { new_display_name: 'doomed' })).status).toBe(201);
    const doomedId = await sessionId(send, 'doomed');
    const doomed = new ScenarioClient(send, doomedId);
    const running = await doomed.started({ tag: 'running', algo_name: 'Busy', algo_params: { duration_ms: 600_000 } });
    await doomed.started({ tag: 'queued', algo_name: 'Instant' });
    await doomed.waitFor(running.id, ['PROCESSING']);
    expect((await send('DELETE', `/sessions/${doomedId}`)).status).toBe(200);
    expect((await doomed.list()).status).toBe(404);
    const survivor = await main.started({ tag: 'survivor', algo_name: 'Instant' });
    expect((await main.waitFor(survivor.id)).status).toBe('COMPLETE');
  });

  it('with workers 0, a run is accepted and stays QUEUED in this process', async () => {
    const { main } = await start({ workers: 0 });
    const scenario = await main.started({ tag: 'waits', algo_name: 'Instant' });
    expect(scenario.status).toBe('QUEUED');
    expect((await main.processing()).body).toBeNull();
  });
});
