import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../support/dialects.js';
import { startHarness, type Harness } from './harness.js';

/** `worker_heap_limit`: a runaway algorithm ends its own thread and run, never the server's process. */
describe.each(DIALECTS)('a run thread heap limit on %s', (dialect) => {
  let database: TestDatabase;
  let h: Harness;
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    h = await startHarness(database, { workers: 1, threadHeapLimitMb: 64 });
  });
  afterAll(async () => {
    await h?.close();
    await database?.drop();
  });

  it('fails a run that outgrows its thread heap, and the next run of the session completes on a new thread', async () => {
    const session = await h.session();
    const hog = await h.start(session, { algoName: 'Fail', algoParams: { mode: 'out-of-memory' } });
    const next = await h.start(session, { algoName: 'Sum' });
    await h.next('run:failed', hog);
    const failed = await h.scenarios.get(hog);
    expect(failed.status).toBe('FAILED');
    expect(failed.error?.message).toMatch(/worker thread .*(memory|heap)/i);
    await h.next('run:completed', next);
    expect((await h.scenarios.get(next)).status).toBe('COMPLETE');
  });
});
