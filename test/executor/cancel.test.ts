import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../support/dialects.js';
import { until } from '../support/until.js';
import { startHarness, type Harness } from './harness.js';

describe.each(DIALECTS)('cancelling runs on %s', (dialect) => {
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

  const eventsOf = (id: string) => h.recorded.filter((e) => e.scenarioId === id).map((e) => e.name);

  it('deletes a PROCESSING scenario that honours its abort signal, and it never completes afterwards', async () => {
    const session = await h.session();
    const ref = await h.start(session, { algoName: 'Sleep', algoParams: { duration_ms: 600_000 } });
    await h.next('run:started', ref);
    await h.scenarios.delete(ref);
    expect(await h.store.scenarios.get(ref)).toBeUndefined();
    // The session moves on: a later run completes, and the deleted one left no trace.
    const after = await h.start(session, { algoName: 'Sum' });
    await h.next('run:completed', after);
    expect(eventsOf(ref.id)).toEqual(['run:queued', 'run:started', 'run:cancelled']);
    expect(await h.store.scenarios.get(ref)).toBeUndefined();
  });

  it('stops a CPU loop at its next progress report when its scenario is deleted', async () => {
    const session = await h.session();
    const ref = await h.start(session, { algoName: 'Spin', algoParams: { duration_ms: 600_000 } });
    await until('the spinning run to report progress', async () => (await h.scenarios.status(ref)).progress > 0);
    await h.scenarios.delete(ref);
    expect(eventsOf(ref.id).filter((n) => n !== 'run:progress')).toEqual(['run:queued', 'run:started', 'run:cancelled']);
  });

  it('stops the thread of a run that ignores its abort signal once the grace period is over', async () => {
    const session = await h.session();
    const ref = await h.start(session, { algoName: 'Stubborn', algoParams: { duration_ms: 600_000 } });
    await h.next('run:started', ref);
    await h.scenarios.delete(ref);
    expect(await h.store.scenarios.get(ref)).toBeUndefined();
    // Both threads are usable again: two sessions complete side by side.
    const [a, b] = [await h.session(), await h.session()];
    const done = [await h.start(a, { algoName: 'Sum' }), await h.start(b, { algoName: 'Sum' })];
    await Promise.all(done.map((r) => h.next('run:completed', r)));
    expect(eventsOf(ref.id)).toEqual(['run:queued', 'run:started', 'run:cancelled']);
  });

  it('removes a QUEUED scenario from the queue so that it never starts', async () => {
    const session = await h.session();
    const blocker = await h.start(session, { algoName: 'Sleep', algoParams: { duration_ms: 200 } });
    const queued = await h.start(session, { algoName: 'Sum' });
    const last = await h.start(session, { algoName: 'Sum' });
    await h.scenarios.delete(queued);
    await h.next('run:completed', last);
    await h.next('run:completed', blocker);
    expect(eventsOf(queued.id)).toEqual(['run:queued', 'run:cancelled']);
  });

  it('cancels every queued and running scenario of a session, leaving finished ones', async () => {
    const session = await h.session();
    const finished = await h.start(session, { algoName: 'Sum' });
    await h.next('run:completed', finished);
    const running = await h.start(session, { algoName: 'Sleep', algoParams: { duration_ms: 600_000 } });
    const queued = await h.start(session, { algoName: 'Sum' });
    await h.next('run:started', running);
    await h.scenarios.cancelSession(session);
    expect((await h.store.scenarios.list(session)).map((s) => s.id)).toEqual([finished.id]);
    // A progress flush (every 250 ms) may announce the sleeping run's progress before the cancel.
    expect(eventsOf(running.id).filter((n) => n !== 'run:progress')).toEqual(['run:queued', 'run:started', 'run:cancelled']);
    expect(eventsOf(queued.id)).toEqual(['run:queued', 'run:cancelled']);
  });

  it('never runs a scenario of another session late because one session was cancelled', async () => {
    const [doomed, kept] = [await h.session(), await h.session()];
    const running = await h.start(doomed, { algoName: 'Sleep', algoParams: { duration_ms: 600_000 } });
    const other = await h.start(kept, { algoName: 'Sleep', algoParams: { duration_ms: 50 } });
    await h.next('run:started', running);
    await h.scenarios.cancelSession(doomed);
    expect(eventsOf(running.id).filter((n) => n !== 'run:progress')).toEqual(['run:queued', 'run:started', 'run:cancelled']);
    await h.next('run:completed', other);
    expect(eventsOf(other.id).filter((n) => n !== 'run:progress')).toEqual(['run:queued', 'run:started', 'run:completed']);
    expect(await h.scenarios.get(other)).toMatchObject({ status: 'COMPLETE', error: null });
    expect(await h.store.scenarios.list(doomed)).toEqual([]);
  });
});
