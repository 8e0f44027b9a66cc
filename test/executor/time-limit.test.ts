import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineAlgorithm, defineDomain } from '../../src/domain/define.js';
import { DomainRegistry } from '../../src/domain/registry.js';
import { claim } from '../../src/executor/queue/claim.js';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../support/dialects.js';
import { startHarness, type Harness } from './harness.js';

describe.each(DIALECTS)('the run time limit on %s', (dialect) => {
  let database: TestDatabase;
  let h: Harness;
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    // Sleep and Stubborn get 300 ms; everything else the default hour.
    h = await startHarness(database, { workers: 1, cancelGraceMs: 200, timeLimits: { fallbackMs: 300, byAlgorithm: { Sum: 3_600_000 } } });
  });
  afterAll(async () => {
    await h?.close();
    await database?.drop();
  });

  it('stops a run past its limit and ends it FAILED with code TIME_LIMIT; the session runs its next scenario', async () => {
    const session = await h.session();
    const endless = await h.start(session, { algoName: 'Sleep', algoParams: { duration_ms: 600_000 } });
    const next = await h.start(session, { algoName: 'Sum' });
    expect(await h.next('run:failed', endless)).toMatchObject({ code: 'TIME_LIMIT', message: 'the run exceeded its time limit of 300 ms and was stopped' });
    await h.next('run:completed', next);
    const stored = await h.scenarios.get(endless);
    expect(stored).toMatchObject({ status: 'FAILED', error: { message: 'the run exceeded its time limit of 300 ms and was stopped', code: 'TIME_LIMIT' } });
  });

  it('also ends a run that ignores its abort signal (its thread is stopped)', async () => {
    const session = await h.session();
    const stubborn = await h.start(session, { algoName: 'Stubborn', algoParams: { duration_ms: 600_000 } });
    expect(await h.next('run:failed', stubborn)).toMatchObject({ code: 'TIME_LIMIT' });
    const next = await h.start(session, { algoName: 'Sum' });
    await h.next('run:completed', next);
  });

  it('gives the claimed run its deadline: the database time of the claim plus its limit', async () => {
    const session = await h.session();
    const ref = await h.create(session, { algoName: 'Sum' });
    // Queued directly in the store, so this test (not the executor) claims it.
    await h.store.runs.queue(ref, { from: ['CREATED'], to: 'QUEUED' }, new Date().toISOString());
    const claimed = await claim(h.store.runs, ref.id, 'test-token', { timeLimitOf: () => 5_000 });
    expect(claimed).toBeDefined();
    const row = await h.store.db.selectFrom('scenarios').select(['started_at', 'lease_owner']).where('id', '=', ref.id).executeTakeFirstOrThrow();
    expect(row.lease_owner).toBe('test-token');
    expect(claimed!.job.deadline).toBe(Date.parse(row.started_at!) + 5_000);
    expect(claimed!.timeLimitMs).toBe(5_000);
    await h.store.runs.fail({ id: ref.id, runToken: 'test-token' }, { message: 'done with it', code: 'ALGORITHM_ERROR' }, new Date().toISOString());
  });
});

describe('an algorithm time limit', () => {
  const algorithm = (timeLimitMs?: number) =>
    defineAlgorithm({ name: 'Timed', parameters: {}, ...(timeLimitMs === undefined ? {} : { timeLimitMs }), run: () => ({}) });
  const registry = (timeLimitMs?: number) => new DomainRegistry(defineDomain({ name: 'timed', schemas: {}, algorithms: [algorithm(timeLimitMs)], kpis: [] }));

  it('wins over the run_time_limit setting; without one the setting applies', () => {
    expect(registry(250).timeLimitOf('Timed', 3_600_000)).toBe(250);
    expect(registry().timeLimitOf('Timed', 3_600_000)).toBe(3_600_000);
    expect(registry(250).timeLimitOf('Unknown', 42)).toBe(42);
  });

  it.each([0, -5, 1.5, Number.NaN, 2 ** 31])('is refused at load when it is %s', (limit) => {
    expect(() => registry(limit)).toThrow(/timeLimitMs/);
  });
});
