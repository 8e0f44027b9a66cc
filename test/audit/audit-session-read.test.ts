import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestApp, type TestApp } from '../support/test-app.js';

/**
 * An audited write resolves its `{sid}` once: the audit hook reads the session for the entry, and the
 * handler's own resolution reuses that read (on PostgreSQL, where resolutions are not cached, a read
 * was a round trip of every run request). A session write in the request forgets it.
 */
describe('the session of an audited request on postgres', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp('postgres', { workers: 0 });
  });
  afterAll(() => t?.close());

  it('is read once for a run request, and read again after a rename', async () => {
    const sessions = t.runtime.services.store.sessions;
    const created = await t.app.inject({ method: 'POST', url: '/api/v1/sessions', payload: { display_name: 'once' } });
    const sid = created.json<{ sessions: { id: string; display_name: string }[] }>().sessions.find((s) => s.display_name === 'once')!.id;
    const example = await t.app.inject({ method: 'GET', url: '/api/v1/sessions/main/data/example' });
    expect((await t.app.inject({ method: 'POST', url: `/api/v1/sessions/${sid}/data/from-json`, headers: { 'content-type': 'application/json' }, payload: example.body })).statusCode).toBe(201);
    const scenario = await t.app.inject({ method: 'POST', url: `/api/v1/sessions/${sid}/scenarios`, payload: { tag: 'a', dataset_key: 'example', algo_name: 'Instant' } });
    const byId = vi.spyOn(sessions, 'findById');
    try {
      const run = await t.app.inject({ method: 'POST', url: `/api/v1/sessions/${sid}/scenarios/${scenario.json<{ id: string }>().id}/run` });
      expect(run.statusCode).toBe(202);
      expect(byId).toHaveBeenCalledTimes(1);
      byId.mockClear();
      const renamed = await t.app.inject({ method: 'PATCH', url: `/api/v1/sessions/${sid}`, payload: { display_name: 'twice' } });
      expect(renamed.statusCode).toBe(200);
      expect(renamed.json()).toMatchObject({ id: sid, display_name: 'twice' });
    } finally {
      byId.mockRestore();
    }
  });
});
