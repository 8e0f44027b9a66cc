import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../support/dialects.js';
import { until } from '../support/until.js';
import { startHarness, type Harness } from './harness.js';

/** Blocks this (the main) thread, as a burst of requests would, while a run thread goes on. */
function blockMainThread(ms: number): void {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    // Nothing: the main thread's event loop must not turn meanwhile.
  }
}

describe.each(DIALECTS)('a session\'s queue going on from each run\'s end (complete-and-claim-next) on %s', (dialect) => {
  let database: TestDatabase;
  let h: Harness;
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    h = await startHarness(database, { workers: 2, cancelGraceMs: 300 });
  });
  afterAll(async () => {
    await h?.close();
    await database?.drop();
  });

  const namesOf = (id: string) => h.recorded.filter((e) => e.scenarioId === id && e.name !== 'run:progress').map((e) => e.name);

  it('runs a backed-up session queue in order, each run announced started and then completed before the next starts', async () => {
    const session = await h.session();
    const blocker = await h.start(session, { algoName: 'Sleep', algoParams: { duration_ms: 300 } });
    const queued: Awaited<ReturnType<Harness['start']>>[] = [];
    for (let i = 0; i < 12; i++) queued.push(await h.start(session, { algoName: i % 3 === 0 ? 'Sleep' : 'Sum', algoParams: i % 3 === 0 ? { duration_ms: 30 } : {} }));
    await h.next('run:completed', queued.at(-1)!);
    const order = h.recorded.filter((e) => [blocker, ...queued].some((r) => r.id === e.scenarioId) && (e.name === 'run:started' || e.name === 'run:completed'));
    const expected = [blocker, ...queued].flatMap((r) => [`run:started ${r.id}`, `run:completed ${r.id}`]);
    expect(order.map((e) => `${e.name} ${e.scenarioId}`)).toEqual(expected);
    for (const ref of queued) expect((await h.scenarios.get(ref)).status).toBe('COMPLETE');
  });

  it('logs the last progress of a run claimed with its predecessor\'s end before its own end, and its result and KPIs land with it', async () => {
    const session = await h.session();
    await h.start(session, { algoName: 'Sleep', algoParams: { duration_ms: 200 } });
    const reporting = await h.start(session, { algoName: 'Sleep', algoParams: { duration_ms: 120 } });
    const summing = await h.start(session, { algoName: 'Sum' });
    await h.next('run:completed', summing);
    const mine = h.recorded.filter((e) => e.scenarioId === reporting.id);
    const end = mine.findIndex((e) => e.name === 'run:completed');
    expect(end).toBeGreaterThan(0);
    expect(mine.slice(0, end).filter((e) => e.name === 'run:progress').at(-1)).toMatchObject({ progress: 1 });
    expect(mine.slice(end + 1).filter((e) => e.name === 'run:progress')).toEqual([]);
    const summed = await h.scenarios.get(summing);
    expect(summed.status).toBe('COMPLETE');
    expect(summed.result).not.toBeNull();
    expect(Object.keys(summed.kpis).length).toBeGreaterThan(0);
  });

  it('stops a queued run cancelled while its session ended the run before it, whichever thread claimed it', async () => {
    // Both run threads ready (domain loaded), so that the first run below runs while this thread is blocked.
    const warm = [await h.start(await h.session(), { algoName: 'Sum' }), await h.start(await h.session(), { algoName: 'Sum' })];
    await Promise.all(warm.map((ref) => h.next('run:completed', ref)));
    const session = await h.session();
    // Reports nothing: its end is written as soon as its thread answers.
    const first = await h.start(session, { algoName: 'Stubborn', algoParams: { duration_ms: 150 } });
    const cancelled = await h.start(session, { algoName: 'Sleep', algoParams: { duration_ms: 600_000 } });
    const after = await h.start(session, { algoName: 'Sum' });
    await h.next('run:started', first);
    // The first run ends while this thread is busy: its end is recorded only once the cancel below
    // has begun, which must keep the cancelled run from being claimed with it, or stop it at once.
    blockMainThread(1_500);
    const cancelling = h.scenarios.cancel(cancelled);
    await cancelling;
    await until('the cancelled run to stop', () => h.executor.live(cancelled.id) === undefined, { within: 15_000 });
    expect(await h.scenarios.get(cancelled)).toMatchObject({ status: 'FAILED', error: { code: 'CANCELLED' } });
    await h.next('run:completed', after);
    expect(namesOf(cancelled.id)).not.toContain('run:completed');
  }, 60_000);

  it('puts a run claimed with its predecessor\'s end back in the queue at a shutdown, without counting an interruption', async () => {
    // On a store of its own, as every executor in this file: two executors on one store take each
    // other's runs (the other's queue sweep claims a run this one was told of), which this executor
    // then never hears of. A store has one executor (the SQLite store lock, `owner`).
    const ownDatabase = await createTestDatabase(dialect);
    const own = await startHarness(ownDatabase, { workers: 1, cancelGraceMs: 300 });
    const session = await own.session();
    const first = await own.start(session, { algoName: 'Sum' });
    const claimedWithEnd = await own.start(session, { algoName: 'Sleep', algoParams: { duration_ms: 600_000 } });
    await own.next('run:completed', first);
    await own.next('run:started', claimedWithEnd);
    await own.executor.close();
    const row = await own.store.db.selectFrom('scenarios').select(['status', 'attempts']).where('id', '=', claimedWithEnd.id).executeTakeFirstOrThrow();
    expect(row.status).toBe('QUEUED');
    expect(row.attempts).toBe(0);
    await own.store.close();
    await ownDatabase.drop();
  });

  describe('one run thread, a session\'s runs sent one request after another', () => {
    let ownDatabase: TestDatabase;
    let own: Harness;
    beforeAll(async () => {
      // A store of its own (see the shutdown test above): on the outer one, the outer executor's
      // queue sweep could claim a run queued here, and this executor would wait for it in vain.
      ownDatabase = await createTestDatabase(dialect);
      own = await startHarness(ownDatabase, { workers: 1 });
    });
    afterAll(async () => {
      await own?.close();
      await ownDatabase?.drop();
    });

    it('claims a run of its session queued meanwhile and runs it', async () => {
      const session = await own.session();
      const first = await own.start(session, { algoName: 'Sum' });
      await own.next('run:completed', first);
      const second = await own.start(session, { algoName: 'Sum', algoParams: { offset: 1 } });
      await own.next('run:completed', second);
      expect((await own.scenarios.get(second)).result).toMatchObject({ total: 5 });
    });

    it('stops a run claimed just before the run was cancelled', async () => {
      const session = await own.session();
      const first = await own.start(session, { algoName: 'Sum' });
      await own.next('run:completed', first);
      const cancelled = await own.start(session, { algoName: 'Sleep', algoParams: { duration_ms: 600_000 } });
      // Queued while this thread is busy; the cancel comes before or after its claim.
      blockMainThread(1_000);
      await own.scenarios.cancel(cancelled);
      await until('the cancelled run to stop', () => own.executor.live(cancelled.id) === undefined, { within: 15_000 });
      // The one thread is free again: the session goes on.
      const after = await own.start(session, { algoName: 'Sum' });
      await own.next('run:completed', after);
      expect(await own.scenarios.get(cancelled)).toMatchObject({ status: 'FAILED', error: { code: 'CANCELLED' } });
    }, 60_000);

    it('serves another session with the thread, then the first again', async () => {
      const waiting = await own.session();
      const first = await own.start(waiting, { algoName: 'Sum' });
      await own.next('run:completed', first);
      const other = await own.start(await own.session(), { algoName: 'Sum' });
      await own.next('run:completed', other);
      const later = await own.start(waiting, { algoName: 'Sum' });
      await own.next('run:completed', later);
    });
  });
});
