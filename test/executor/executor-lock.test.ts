import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { StoreLockedError } from '../../src/store/sqlite/store-lock.js';
import { openStore } from '../../src/store/store.js';
import { createTestDatabase, type TestDatabase } from '../support/dialects.js';
import { startHarness, type Harness } from './harness.js';

describe('the one process of a SQLite store', () => {
  let database: TestDatabase;
  const open: Harness[] = [];
  beforeEach(async () => {
    database = await createTestDatabase('sqlite');
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((h) => h.close()));
    await database?.drop();
  });

  it('refuses a second owner while the first runs a scenario, and leaves that run alone in the database', async () => {
    const first = await startHarness(database, { workers: 1, owner: true });
    open.push(first);
    const session = await first.session();
    const running = await first.start(session, { algoName: 'Sleep', algoParams: { duration_ms: 600_000 } });
    await first.next('run:started', running);

    const second = openStore(database.url, { owner: true });
    await expect(second).rejects.toBeInstanceOf(StoreLockedError);
    await expect(second).rejects.toThrow(`pid ${process.pid}`);
    await expect(second).rejects.toThrow(/many processes need PostgreSQL/);
    // The row itself (not the first process's memory) still says the run is live and unrecovered.
    const row = await first.store.db.selectFrom('scenarios').select(['status', 'attempts']).where('id', '=', running.id).executeTakeFirst();
    expect(row).toEqual({ status: 'PROCESSING', attempts: 1 });
    expect(first.recorded.filter((e) => e.scenarioId === running.id).map((e) => e.name)).toEqual(['run:queued', 'run:started']);
  });

  it('lets a new owner open the store once the first has closed it', async () => {
    const first = await startHarness(database, { workers: 1, owner: true });
    await first.close();
    const next = await startHarness(database, { workers: 1, owner: true });
    open.push(next);
    const ref = await next.start(await next.session(), { algoName: 'Sum' });
    await next.next('run:completed', ref);
  });
});
