import { randomUUID } from 'node:crypto';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RunEvents } from '../../src/executor/events.js';
import { fillHostOptions } from '../../src/executor/host/host-options.js';
import { hostedPool } from '../../src/executor/host/hosted-pool.js';
import { claim } from '../../src/executor/queue/claim.js';
import { TEST_DOMAIN } from '../fixtures/test-domain-path.js';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../support/dialects.js';
import { startHarness, type Harness } from './harness.js';

/**
 * A run cancelled in the moment between its claim and its launch on a thread: the cancel's stop finds
 * nothing to stop yet, so the run host itself must notice that the row is no longer the run's and stop
 * it, on the local executor (no lease) as on the distributed one, whether or not the run reports
 * progress. Driven by hand: the claim, then the cancel, then the launch.
 */
describe.each(DIALECTS)('a run cancelled between its claim and its launch, on %s', (dialect) => {
  let database: TestDatabase;
  let h: Harness;
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    // Runs nothing itself: the run host below is the only one.
    h = await startHarness(database, { workers: 0 });
  });
  afterAll(async () => {
    await h?.close();
    await database?.drop();
  });

  it.each([
    ['reports progress once, then waits (Halfway)', 'Halfway'],
    ['never reports progress nor checks its signal (Stubborn)', 'Stubborn'],
  ])('is stopped when it %s', async (_label, algoName) => {
    const options = fillHostOptions({
      store: h.store,
      events: new RunEvents(),
      log: pino({ level: 'silent' }),
      workers: 1,
      databaseUrl: database.url,
      domain: TEST_DOMAIN,
      cancelGraceMs: 300,
    });
    const { pool, host } = hostedPool(options);
    host.startFlushing();
    try {
      const ref = await h.create(await h.session(), { algoName, algoParams: { duration_ms: 600_000 } });
      await h.scenarios.run(ref);
      const claimed = await claim(h.store.runs, ref.id, randomUUID(), { timeLimitOf: () => 3_600_000 });
      expect(claimed?.job.scenarioId).toBe(ref.id);
      await h.scenarios.cancel(ref);
      // Launched after the cancel: without the host's own check it would hold its thread for ten minutes.
      const last = await host.runSession(claimed!);
      expect(last.stopReason).toBe('cancel');
      expect(host.has(ref.id)).toBe(false);
      expect(await h.scenarios.get(ref)).toMatchObject({ status: 'FAILED', error: { code: 'CANCELLED' } });
    } finally {
      host.stopFlushing();
      await host.stopAll('shutdown');
      await pool.destroy();
    }
  }, 30_000);
});
