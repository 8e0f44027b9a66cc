import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/dialects.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

/** The benchmark-only `bench_audit_off` setting, handed through assembly: a server that records nothing. */
describe.each(DIALECTS)('a server with bench_audit_off on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(dialect, { bench_audit_off: true });
  });
  afterAll(() => t.close());

  it('answers writes, accepted or refused, and records none of them', async () => {
    const before = await t.runtime.services.store.audit.head();
    const created = await t.app.inject({ method: 'POST', url: '/api/v1/sessions', payload: { display_name: 'unrecorded' } });
    expect(created.statusCode).toBeLessThan(300);
    const refused = await t.app.inject({ method: 'DELETE', url: '/api/v1/sessions/no-such-session' });
    expect(refused.statusCode).toBe(404);
    expect(await t.runtime.services.store.audit.head()).toEqual(before);
  });
});
