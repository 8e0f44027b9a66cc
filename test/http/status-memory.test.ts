import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { injectSender, ScenarioClient, type Send } from '../fixtures/scenario-client.js';
import { DIALECTS } from '../support/dialects.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

const LONG = { algo_name: 'Sleep', algo_params: { duration_ms: 600_000 } };

interface SessionList {
  sessions: { id: string; display_name: string }[];
}

/**
 * On SQLite (this process the single writer) status polls and `{sid}` lookups are answered from
 * memory; on PostgreSQL from the database. Either way a poll must show every write the process made.
 * Each case polls first, so that memory holds the scenario before the write under test.
 */
describe.each(DIALECTS)('status after writes made through the service on %s', (dialect) => {
  let t: TestApp;
  let send: Send;
  let main: ScenarioClient;
  let counter = 0;
  const tag = () => `status ${++counter}`;
  const statusOf = async (client: ScenarioClient, id: string) => (await client.status(id)).body.status;

  /** A new session holding a copy of main's example dataset. */
  const newSession = async (name: string): Promise<{ id: string; client: ScenarioClient }> => {
    const list = (await send('POST', '/sessions', { display_name: name })).body as SessionList;
    const id = list.sessions.find((s) => s.display_name === name)!.id;
    expect((await send('POST', `/sessions/${id}/data/from-json`, (await send('GET', '/sessions/main/data/example')).body)).status).toBe(201);
    return { id, client: new ScenarioClient(send, id) };
  };

  beforeAll(async () => {
    t = await startTestApp(dialect);
    send = injectSender(t.app);
    main = new ScenarioClient(send, 'main');
  });
  afterAll(() => t?.close());

  it('shows QUEUED right after a run of a polled CREATED scenario', async () => {
    const blocker = await main.started({ tag: tag(), ...LONG });
    const created = await main.created({ tag: tag(), algo_name: 'Instant' });
    expect(await statusOf(main, created.id)).toBe('CREATED');
    expect((await main.run(created.id)).status).toBe(202);
    expect((await main.status(created.id)).body).toMatchObject({ status: 'QUEUED', progress: 0 });
    await main.delete(blocker.id);
    expect((await main.waitFor(created.id)).status).toBe('COMPLETE');
  });

  it('shows PROCESSING and then COMPLETE with progress 1 as the executor runs it', async () => {
    const scenario = await main.started({ tag: tag(), algo_name: 'Sleep', algo_params: { duration_ms: 300 } });
    expect((await main.waitFor(scenario.id, ['PROCESSING'])).status).toBe('PROCESSING');
    expect(await main.waitFor(scenario.id)).toMatchObject({ status: 'COMPLETE', progress: 1 });
    expect((await main.get(scenario.id)).body.status).toBe('COMPLETE');
  });

  it('shows FAILED once a polled run fails', async () => {
    const scenario = await main.started({ tag: tag(), algo_name: 'Fail' });
    expect(await statusOf(main, scenario.id)).toMatch(/QUEUED|PROCESSING|FAILED/);
    expect((await main.waitFor(scenario.id)).status).toBe('FAILED');
  });

  it('shows CREATED with progress 0 after a reset of a polled COMPLETE scenario', async () => {
    const scenario = await main.started({ tag: tag(), algo_name: 'Instant' });
    expect((await main.waitFor(scenario.id)).status).toBe('COMPLETE');
    expect((await main.reset(scenario.id)).status).toBe(200);
    expect((await main.status(scenario.id)).body).toEqual({ id: scenario.id, tag: scenario.tag, status: 'CREATED', progress: 0 });
  });

  it('answers 404 after a polled scenario is deleted, whether CREATED, QUEUED or PROCESSING', async () => {
    const created = await main.created({ tag: tag(), algo_name: 'Instant' });
    const running = await main.started({ tag: tag(), ...LONG });
    const queued = await main.started({ tag: tag(), ...LONG });
    await main.waitFor(running.id, ['PROCESSING']);
    for (const id of [created.id, queued.id, running.id]) {
      expect((await main.status(id)).status).toBe(200);
      expect((await main.delete(id)).status).toBe(204);
      expect((await main.status(id)).status).toBe(404);
    }
  });

  it('answers 404 for a polled scenario asked under another session', async () => {
    const scenario = await main.created({ tag: tag(), algo_name: 'Instant' });
    const other = await newSession(`elsewhere ${tag()}`);
    expect((await main.status(scenario.id)).status).toBe(200);
    expect((await other.client.status(scenario.id)).status).toBe(404);
  });

  it('answers 404 for the scenarios of a deleted session, and its name resolves to a new session of that name', async () => {
    const name = `doomed ${tag()}`;
    const doomed = await newSession(name);
    const finished = await doomed.client.started({ tag: 'finished', algo_name: 'Instant' });
    await doomed.client.waitFor(finished.id);
    const running = await doomed.client.started({ tag: 'running', ...LONG });
    await doomed.client.waitFor(running.id, ['PROCESSING']);
    expect((await send('DELETE', `/sessions/${doomed.id}`)).status).toBe(200);
    for (const sid of [doomed.id, name]) {
      expect((await send('GET', `/sessions/${encodeURIComponent(sid)}/scenarios/${finished.id}/status`)).status).toBe(404);
      expect((await send('GET', `/sessions/${encodeURIComponent(sid)}/scenarios/${running.id}/status`)).status).toBe(404);
    }
    const reborn = await newSession(name);
    const byName = new ScenarioClient(send, name);
    expect((await byName.status(finished.id)).status).toBe(404);
    const fresh = await reborn.client.created({ tag: 'finished', algo_name: 'Instant' });
    expect((await byName.status(fresh.id)).body).toMatchObject({ id: fresh.id, status: 'CREATED' });
  });

  it('resolves a renamed session by its new name only, and its old name again once renamed back', async () => {
    const before = `before ${tag()}`;
    const after = `after ${tag()}`;
    const session = await newSession(before);
    const scenario = await session.client.created({ tag: 'renamed', algo_name: 'Instant' });
    expect((await new ScenarioClient(send, before).status(scenario.id)).status).toBe(200);
    expect((await send('PATCH', `/sessions/${session.id}`, { display_name: after })).status).toBe(200);
    expect((await new ScenarioClient(send, before).status(scenario.id)).status).toBe(404);
    expect((await new ScenarioClient(send, after).status(scenario.id)).body).toMatchObject({ id: scenario.id, status: 'CREATED' });
    expect((await send('PATCH', `/sessions/${after}`, { display_name: before })).status).toBe(200);
    expect((await new ScenarioClient(send, after).status(scenario.id)).status).toBe(404);
    expect((await new ScenarioClient(send, before).status(scenario.id)).status).toBe(200);
  });

  it('shows a copied session its own scenarios, finished ones as they were and running ones as CREATED', async () => {
    const source = await newSession(`source ${tag()}`);
    const finished = await source.client.started({ tag: 'finished', algo_name: 'Instant' });
    await source.client.waitFor(finished.id);
    const running = await source.client.started({ tag: 'running', ...LONG });
    await source.client.waitFor(running.id, ['PROCESSING']);
    const copyName = `copy ${tag()}`;
    expect((await send('POST', `/sessions/${source.id}/copy`, { new_display_name: copyName })).status).toBe(201);
    const copy = new ScenarioClient(send, copyName);
    const copies = (await copy.list()).body;
    const statuses = await Promise.all(copies.map(async (s) => [s.tag, await statusOf(copy, s.id)] as const));
    expect(Object.fromEntries(statuses)).toEqual({ finished: 'COMPLETE', running: 'CREATED' });
    expect(await statusOf(source.client, running.id)).toBe('PROCESSING');
    await source.client.delete(running.id);
  });
});

describe.each(DIALECTS)('where status polls are answered from on %s', (dialect) => {
  const setStatusBehindTheService = (t: TestApp, id: string) =>
    t.runtime.services.store.db.updateTable('scenarios').set({ status: 'FAILED', error: 'written elsewhere' }).where('id', '=', id).execute();

  it(
    dialect === 'sqlite'
      ? 'answers from memory on SQLite with workers, where this process is the store’s only writer'
      : 'reads the database on PostgreSQL, where other nodes write too',
    async () => {
      const t = await startTestApp(dialect, { workers: 1 });
      try {
        const main = new ScenarioClient(injectSender(t.app), 'main');
        const created = await main.created({ tag: 'polled', algo_name: 'Instant' });
        expect((await main.status(created.id)).body.status).toBe('CREATED');
        await setStatusBehindTheService(t, created.id);
        expect((await main.status(created.id)).body.status).toBe(dialect === 'sqlite' ? 'CREATED' : 'FAILED');
      } finally {
        await t.close();
      }
    },
  );

  it('with workers 0 too, answers as the single-writer rule says (SQLite: no other process may write the store)', async () => {
    const t = await startTestApp(dialect, { workers: 0 });
    try {
      const main = new ScenarioClient(injectSender(t.app), 'main');
      const created = await main.created({ tag: 'polled', algo_name: 'Instant' });
      expect((await main.status(created.id)).body.status).toBe('CREATED');
      await setStatusBehindTheService(t, created.id);
      expect((await main.status(created.id)).body.status).toBe(dialect === 'sqlite' ? 'CREATED' : 'FAILED');
    } finally {
      await t.close();
    }
  });
});
