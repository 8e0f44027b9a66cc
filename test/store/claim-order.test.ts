import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/dialects.js';
import { queuedSession, useTestStore } from '../support/test-store.js';

/**
 * A claim by id (a distributed job names its scenario) takes only the first queued run of its session:
 * a job put back while its session was busy must not be overtaken by the job of the session's next run.
 */
describe.each(DIALECTS)('claiming runs in queue order on %s', (dialect) => {
  const store = useTestStore(dialect);

  it('refuses a later run of a session while an earlier one is queued, and takes the runs in order', async () => {
    const { runs } = store();
    const [first, second, third] = (await queuedSession(store(), 3)).ids;
    expect(await runs.claim(second!, randomUUID())).toBeUndefined();
    expect(await runs.claim(third!, randomUUID())).toBeUndefined();
    const firstToken = randomUUID();
    expect((await runs.claim(first!, firstToken))?.id).toBe(first);
    expect(await runs.complete({ id: first!, runToken: firstToken }, { resultJson: '{}', kpis: {} }, new Date().toISOString())).toBe(true);
    expect(await runs.claim(third!, randomUUID())).toBeUndefined();
    expect((await runs.claim(second!, randomUUID()))?.id).toBe(second);
  });

  it('lets sessions be claimed independently of each other', async () => {
    const [a] = (await queuedSession(store(), 2)).ids;
    const [b] = (await queuedSession(store(), 2)).ids;
    expect((await store().runs.claim(b!, randomUUID()))?.id).toBe(b);
    expect((await store().runs.claim(a!, randomUUID()))?.id).toBe(a);
  });
});
