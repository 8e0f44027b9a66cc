import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ExecutorLockedError } from '../../src/executor/local/executor-lock.js';
import { createTestDatabase, type TestDatabase } from '../support/dialects.js';
import { startHarness, type Harness } from './harness.js';

describe('the one local executor of a SQLite store', () => {
  let database: TestDatabase;
  const open: Harness[] = [];
  beforeEach(async () => {
    database = await createTestDatabase('sqlite');
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((h) => h.close()));
    await database?.drop();
  });

  it('refuses a second executor with workers while the first runs, and leaves the first run alone', async () => {
    const first = await startHarness(database, { workers: 1 });
    open.push(first);
    const session = await first.session();
    const running = await first.start(session, { algoName: 'Sleep', algoParams: { duration_ms: 600_000 } });
    await first.next('run:started', running);

    const second = startHarness(database, { workers: 1 });
    await expect(second).rejects.toBeInstanceOf(ExecutorLockedError);
    await expect(second).rejects.toThrow(/another scenarist process already runs scenarios on .*test\.db/);
    // The first executor's live run was not re-queued as interrupted.
    expect((await first.scenarios.status(running)).status).toBe('PROCESSING');
    expect(first.recorded.filter((e) => e.scenarioId === running.id).map((e) => e.name)).toEqual(['run:queued', 'run:started']);
  });

  it('lets a process without workers share the store, and a new executor start once the first has stopped', async () => {
    const first = await startHarness(database, { workers: 1 });
    open.push(first);
    open.push(await startHarness(database, { workers: 0 }));
    await first.close();
    open.splice(open.indexOf(first), 1);
    const next = await startHarness(database, { workers: 1 });
    open.push(next);
    const ref = await next.start(await next.session(), { algoName: 'Sum' });
    await next.next('run:completed', ref);
  });
});
