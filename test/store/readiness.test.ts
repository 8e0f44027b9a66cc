import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../src/http/app.js';
import { Readiness } from '../../src/store/readiness.js';
import { DIALECTS } from '../support/dialects.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

describe.each(DIALECTS)('readiness on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(dialect, { workers: 0 });
  });
  afterAll(() => t?.close());

  it('is ready while the database answers and migrations are current', async () => {
    // The drop folder's check rides along (a writable folder under the test's data directory): it informs, it is never why a process is not ready.
    expect(await t.runtime.services.readiness.check()).toEqual({ ready: true, checks: [expect.objectContaining({ ok: true })] });
  });

  it('carries its start-up notes on a ready answer, still 200: they inform, they do not take traffic away', async () => {
    const note = 'external programs are contained by their process group only (no cgroup v2 hierarchy is mounted)';
    const readiness = await Readiness.of(t.runtime.services.store, t.database.url, [note]);
    expect(await readiness.check()).toEqual({ ready: true, notes: [note] });
    const app = await buildApp({ ...t.runtime.services, readiness });
    try {
      const res = await app.inject({ method: 'GET', url: '/health/ready' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ status: 'ok', notes: [note] });
      readiness.shutdownStarted();
      expect((await app.inject({ method: 'GET', url: '/health/ready' })).json()).toEqual({ status: 'unavailable', reason: 'shutting down' });
    } finally {
      await app.close();
    }
  });

  it('answers "shutting down" to a check that was still asking the database when the shutdown started', async () => {
    const readiness = t.runtime.services.readiness;
    const inFlight = readiness.check();
    readiness.shutdownStarted();
    expect(await inFlight).toEqual({ ready: false, reason: 'shutting down' });
    expect(await readiness.check()).toEqual({ ready: false, reason: 'shutting down' });
  });
});
