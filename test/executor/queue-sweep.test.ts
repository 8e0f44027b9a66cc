import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changeFor } from '../../src/model/run-state/changes.js';
import type { ScenarioRef } from '../../src/store/scenarios-repository.js';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../support/dialects.js';
import { startHarness, type Harness } from './harness.js';

/**
 * A run queued by a write that did not tell the executor (`queued` never called) is found by the
 * executor's periodic look at the queue (`queueSweepMs`), not left waiting for another request.
 */
describe.each(DIALECTS)('the local executor’s look at a queue it was not told about, on %s', (dialect) => {
  let database: TestDatabase;
  let h: Harness;
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    h = await startHarness(database, { workers: 2 });
  });
  afterAll(async () => {
    await h?.close();
    await database?.drop();
  });

  /** Queues the scenario through the store alone, as a path that forgot the executor would. */
  const queueSilently = async (ref: ScenarioRef) => {
    expect(await h.store.runs.queue(ref, changeFor('run'), new Date().toISOString())).toMatchObject({ status: 'QUEUED' });
  };

  it('runs them in the order they were queued, each once', async () => {
    const session = await h.session();
    const first = await h.create(session, { algoName: 'Sum' });
    const second = await h.create(session, { algoName: 'Sum' });
    await queueSilently(first);
    await queueSilently(second);

    await h.next('run:completed', first);
    await h.next('run:completed', second);
    const started = h.recorded.filter((e) => e.name === 'run:started' && e.sessionId === session).map((e) => e.scenarioId);
    expect(started).toEqual([first.id, second.id]);
    for (const ref of [first, second]) expect((await h.scenarios.get(ref)).status).toBe('COMPLETE');
  });
});
