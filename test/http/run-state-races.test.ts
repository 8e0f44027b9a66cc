import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { injectSender, ScenarioClient, type Send } from '../fixtures/scenario-client.js';
import { DIALECTS } from '../support/dialects.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

interface SessionList {
  readonly sessions: { id: string; display_name: string }[];
}

/**
 * Races between requests on different rows (a session and its copy, a dataset and a scenario using
 * it), resolved inside the database: exactly one winner, and nothing committed half-done.
 */
describe.each(DIALECTS)('requests racing on sessions and datasets on %s', (dialect) => {
  let t: TestApp;
  let send: Send;
  beforeAll(async () => {
    t = await startTestApp(dialect, { workers: 1 });
    send = injectSender(t.app);
  });
  afterAll(() => t?.close());

  /** A new session holding main's example dataset (under `keys`) and `scenarios` CREATED scenarios. */
  const newSession = async (name: string, keys: readonly string[] = ['example'], scenarios = 0): Promise<string> => {
    const list = (await send('POST', '/sessions', { display_name: name })).body as SessionList;
    const id = list.sessions.find((s) => s.display_name === name)!.id;
    const form = (await send('GET', '/sessions/main/data/example')).body as Record<string, unknown>;
    for (const key of keys) expect((await send('POST', `/sessions/${id}/data/from-json`, { ...form, key })).status).toBe(201);
    const client = new ScenarioClient(send, id);
    for (let i = 0; i < scenarios; i++) await client.created({ tag: `s${i}`, algo_name: 'Instant', dataset_key: keys[0] });
    return id;
  };

  it('answers exactly one of 20 concurrent deletes of a session with 200, the others 404', async () => {
    const sid = await newSession('deleted 20 times');
    const replies = await Promise.all(Array.from({ length: 20 }, () => send('DELETE', `/sessions/${sid}`)));
    const codes = replies.map((r) => r.status);
    expect(codes.filter((c) => c === 200)).toHaveLength(1);
    expect(codes.filter((c) => c === 404)).toHaveLength(19);
    expect((await send('GET', `/sessions/${sid}/scenarios`)).status).toBe(404);
  });

  it('never answers 201 for a copy that lost a race with the delete of its source: every copy is whole', async () => {
    const sid = await newSession('copied while deleted', ['example', 'second'], 3);
    const copies = Array.from({ length: 20 }, (_, i) => send('POST', `/sessions/${sid}/copy`, { new_display_name: `copy ${sid} ${i}` }));
    const [deleted, ...replies] = await Promise.all([send('DELETE', `/sessions/${sid}`), ...copies]);
    expect(deleted!.status).toBe(200);
    for (const [i, reply] of replies.entries()) {
      expect([201, 404]).toContain(reply.status);
      const name = `copy ${sid} ${i}`;
      const list = (await send('GET', '/sessions')).body as SessionList;
      const copy = list.sessions.find((s) => s.display_name === name);
      if (reply.status === 404) {
        expect(copy).toBeUndefined();
        continue;
      }
      expect(copy).toBeDefined();
      expect((await send('GET', `/sessions/${copy!.id}/data`)).body).toEqual({ keys: ['example', 'second'] });
      expect(((await send('GET', `/sessions/${copy!.id}/scenarios`)).body as unknown[]).length).toBe(3);
    }
  });

  it('lets either the delete of a dataset or the creation of a scenario on it win, never both', async () => {
    const keys = Array.from({ length: 40 }, (_, i) => `d${i}`);
    const sid = await newSession('dataset vs scenario', keys);
    const client = new ScenarioClient(send, sid);
    const outcomes = await Promise.all(
      keys.map(async (key) => {
        const [deleted, created] = await Promise.all([
          send('DELETE', `/sessions/${sid}/data/${key}`),
          client.create({ tag: `on ${key}`, algo_name: 'Instant', dataset_key: key }),
        ]);
        return { key, deleted: deleted.status, created: created.status };
      }),
    );
    for (const outcome of outcomes) {
      // Either the delete won (204, the create found no dataset: 404) or the create did (201, 409).
      expect([{ deleted: 204, created: 404 }, { deleted: 409, created: 201 }]).toContainEqual({ deleted: outcome.deleted, created: outcome.created });
    }
    // What is stored agrees: every scenario's dataset exists.
    const stored = (await send('GET', `/sessions/${sid}/data`)).body as { keys: string[] };
    const scenarios = (await client.list()).body;
    for (const scenario of scenarios) expect(stored.keys).toContain(scenario.input_data_id);
    expect(scenarios.length + (keys.length - stored.keys.length)).toBe(keys.length);
  });
});
