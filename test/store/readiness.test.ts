import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/dialects.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

describe.each(DIALECTS)('readiness on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(dialect, { workers: 0 });
  });
  afterAll(() => t?.close());

  it('is ready while the database answers and migrations are current', async () => {
    expect(await t.runtime.services.readiness.check()).toEqual({ ready: true });
  });

  it('answers "shutting down" to a check that was still asking the database when the shutdown started', async () => {
    const readiness = t.runtime.services.readiness;
    const inFlight = readiness.check();
    readiness.shutdownStarted();
    expect(await inFlight).toEqual({ ready: false, reason: 'shutting down' });
    expect(await readiness.check()).toEqual({ ready: false, reason: 'shutting down' });
  });
});
