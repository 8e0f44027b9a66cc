import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, type TestDatabase } from '../support/dialects.js';
import { terminateBackends } from '../support/terminate-backends.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

// PostgreSQL only: SQLite has no connection to lose.
describe('reads after PostgreSQL connections are terminated', () => {
  let db: TestDatabase;
  let t: TestApp;
  let scenarioId: string;
  beforeAll(async () => {
    db = await createTestDatabase('postgres');
    t = await startTestApp('postgres', { workers: 0 }, db);
    const created = await t.app.inject({ method: 'POST', url: '/api/v1/sessions/main/scenarios', payload: { tag: 'polled', dataset_key: 'example', algo_name: 'As-Is Slotting' } });
    scenarioId = created.json<{ id: string }>().id;
  });
  afterAll(() => t?.close());

  it('answers every poll and read without a 5xx right after pg_terminate_backend', async () => {
    const name = new URL(db.url).pathname.slice(1);
    const urls = [
      `/api/v1/sessions/main/scenarios/${scenarioId}/status`,
      `/api/v1/sessions/main/scenarios/${scenarioId}`,
      '/api/v1/sessions/main/scenarios',
      '/api/v1/sessions/main/data',
      '/api/v1/sessions/main/data/example',
      '/api/v1/sessions',
    ];
    for (let round = 0; round < 5; round++) {
      // Fill the pool with idle connections, then kill them all under it.
      await Promise.all(urls.map((url) => t.app.inject({ url })));
      expect(await terminateBackends(name)).toBeGreaterThan(0);
      const replies = await Promise.all(urls.map((url) => t.app.inject({ url })));
      for (const [i, res] of replies.entries()) expect(res.statusCode, `${urls[i]}: ${res.body.slice(0, 200)}`).toBe(200);
    }
  });

  it('still fails a write on a dead connection rather than repeating it', async () => {
    const name = new URL(db.url).pathname.slice(1);
    await t.app.inject({ url: '/api/v1/sessions' });
    await terminateBackends(name);
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/sessions', payload: { display_name: 'after-kill' } });
    // Either the write reached a live connection (201) or it failed once (500); it is never applied twice.
    expect([201, 500]).toContain(res.statusCode);
    const names = (await t.app.inject({ url: '/api/v1/sessions' })).json<{ sessions: { display_name: string }[] }>().sessions.map((s) => s.display_name);
    expect(names.filter((n) => n === 'after-kill').length).toBe(res.statusCode === 201 ? 1 : 0);
  });
});
