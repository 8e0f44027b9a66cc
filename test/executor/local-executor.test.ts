import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../support/dialects.js';
import { until } from '../support/until.js';
import { startHarness, type Harness } from './harness.js';

describe.each(DIALECTS)('the local executor on %s', (dialect) => {
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

  it('runs a queued scenario to COMPLETE with its result, KPIs and progress 1', async () => {
    const session = await h.session();
    const ref = await h.start(session, { algoName: 'Sum', algoParams: { offset: 2 }, dataParams: { scale: 2 } });
    await h.next('run:completed', ref);
    const scenario = await h.scenarios.get(ref);
    expect(scenario.status).toBe('COMPLETE');
    expect(scenario.result).toEqual({ total: 10, count: 2 });
    expect(scenario.kpis.total!.value).toBe(10);
    expect(scenario.kpis.count!.value).toBe(2);
    expect(scenario.progress).toBe(1);
    expect(scenario.error).toBeNull();
    expect(Date.parse(scenario.started_at!)).not.toBeNaN();
    expect(Date.parse(scenario.finished_at!)).not.toBeNaN();
  });

  it('emits queued, started and completed for a run, in that order', async () => {
    const session = await h.session();
    const ref = await h.start(session, { algoName: 'Sum' });
    await h.next('run:completed', ref);
    const names = h.recorded.filter((e) => e.scenarioId === ref.id).map((e) => e.name);
    expect(names.filter((n) => n !== 'run:progress')).toEqual(['run:queued', 'run:started', 'run:completed']);
  });

  it('runs the scenarios of one session one at a time in the order they were queued', async () => {
    const session = await h.session();
    const refs = [];
    for (let i = 0; i < 5; i++) refs.push(await h.start(session, { algoName: 'Sleep', algoParams: { duration_ms: 30 } }));
    await h.next('run:completed', refs[4]!);
    const ids = new Set(refs.map((r) => r.id));
    const sequence = h.recorded.filter((e) => ids.has(e.scenarioId) && (e.name === 'run:started' || e.name === 'run:completed'));
    expect(sequence.map((e) => `${e.name} ${e.scenarioId}`)).toEqual(
      refs.flatMap((r) => [`run:started ${r.id}`, `run:completed ${r.id}`]),
    );
  });

  it('runs scenarios of different sessions at the same time, up to the number of workers', async () => {
    const [a, b, c] = [await h.session(), await h.session(), await h.session()];
    const long = { algoName: 'Sleep', algoParams: { duration_ms: 600_000 } };
    const refs = [await h.start(a, long), await h.start(b, long), await h.start(c, long)];
    await until('the second run to start', async () => (await h.scenarios.status(refs[1]!)).status === 'PROCESSING');
    expect((await h.scenarios.status(refs[0]!)).status).toBe('PROCESSING');
    // Two workers: the third session waits for a free thread.
    expect((await h.scenarios.status(refs[2]!)).status).toBe('QUEUED');
    await h.scenarios.delete(refs[0]!);
    await until('the third run to start', async () => (await h.scenarios.status(refs[2]!)).status === 'PROCESSING');
    await Promise.all([h.scenarios.delete(refs[1]!), h.scenarios.delete(refs[2]!)]);
  });

  it('serves live progress from memory while processing and writes it to the database in batches', async () => {
    const session = await h.session();
    const ref = await h.start(session, { algoName: 'Halfway', algoParams: { duration_ms: 600_000 } });
    await until('progress 0.5 through the service', async () => (await h.scenarios.status(ref)).progress === 0.5);
    await until('progress 0.5 in the store', async () => (await h.store.scenarios.status(ref))?.progress === 0.5);
    expect(h.recorded).toContainEqual({ name: 'run:progress', scenarioId: ref.id, sessionId: session, progress: 0.5 });
    expect((await h.scenarios.get(ref)).progress).toBe(0.5);
    expect((await h.scenarios.processing(session))?.id).toBe(ref.id);
    await h.scenarios.delete(ref);
    expect(await h.scenarios.processing(session)).toBeNull();
  });

  it('clamps progress to [0, 1] and never lets it decrease', async () => {
    const session = await h.session();
    const ref = await h.start(session, { algoName: 'Wobble', algoParams: { duration_ms: 600_000 } });
    await until('progress 0.6 in the store', async () => (await h.store.scenarios.status(ref))?.progress === 0.6);
    expect((await h.scenarios.status(ref)).progress).toBe(0.6);
    const reported = h.recorded.filter((e) => e.name === 'run:progress' && e.scenarioId === ref.id);
    expect(reported.map((e) => (e.name === 'run:progress' ? e.progress : -1))).toEqual([0.6]);
    await h.scenarios.delete(ref);
  });

  it('keeps HTTP-style reads answering while a CPU-bound run spins in a worker thread', async () => {
    const session = await h.session();
    const ref = await h.start(session, { algoName: 'Spin', algoParams: { duration_ms: 600_000 } });
    await until('the run to report progress', async () => (await h.scenarios.status(ref)).progress > 0);
    // The main thread is free: many reads complete while the spin goes on.
    for (let i = 0; i < 20; i++) expect((await h.scenarios.status(ref)).status).toBe('PROCESSING');
    await h.scenarios.delete(ref);
  });

  it('reset after COMPLETE clears result, KPIs and progress, and the scenario runs again', async () => {
    const session = await h.session();
    const ref = await h.start(session, { algoName: 'Sum' });
    await h.next('run:completed', ref);
    const reset = await h.scenarios.reset(ref);
    expect(reset).toMatchObject({ status: 'CREATED', result: null, progress: 0, started_at: null, finished_at: null, error: null });
    expect(Object.values(reset.kpis).every((k) => k.value === null)).toBe(true);
    const completions = h.recorded.filter((e) => e.name === 'run:completed' && e.scenarioId === ref.id).length;
    await h.scenarios.run(ref);
    await until('another run:completed of the scenario', () => h.recorded.filter((e) => e.name === 'run:completed' && e.scenarioId === ref.id).length > completions);
    expect((await h.scenarios.get(ref)).status).toBe('COMPLETE');
  });

  it('starts a scenario of another session while one session works through a long queue', async () => {
    const [busy, other] = [await h.session(), await h.session()];
    const refs = [];
    // The head of the long queue runs until it is deleted, so nothing behind it can finish first.
    refs.push(await h.start(busy, { algoName: 'Sleep', algoParams: { duration_ms: 600_000 } }));
    for (let i = 0; i < 3; i++) refs.push(await h.start(busy, { algoName: 'Sleep', algoParams: { duration_ms: 50 } }));
    await h.next('run:started', refs[0]!);
    const late = await h.start(other, { algoName: 'Sum' });
    await h.next('run:completed', late);
    // The other session did not wait for the long queue to drain.
    expect((await h.scenarios.status(refs[3]!)).status).toBe('QUEUED');
    await h.scenarios.delete(refs[0]!);
    await h.next('run:completed', refs[3]!);
  });

  it('leaves a session alone while it has a PROCESSING scenario this executor does not run, and runs it once that one ends', async () => {
    const [held, free] = [await h.session(), await h.session()];
    // A run of some other process: PROCESSING in the database, unknown to this executor.
    const foreign = await h.create(held, { algoName: 'Sum' });
    await h.store.db.updateTable('scenarios').set({ status: 'PROCESSING', lease_owner: 'another process' }).where('id', '=', foreign.id).execute();
    const waiting = await h.start(held, { algoName: 'Sum' });
    const first = await h.start(free, { algoName: 'Sum' });
    await h.next('run:completed', first);
    expect((await h.store.scenarios.status(waiting))?.status).toBe('QUEUED');
    await h.store.db.updateTable('scenarios').set({ status: 'COMPLETE', lease_owner: null }).where('id', '=', foreign.id).execute();
    // Any later news makes the executor look at the queue again.
    const second = await h.start(free, { algoName: 'Sum' });
    await h.next('run:completed', waiting);
    await h.next('run:completed', second);
  });
});
