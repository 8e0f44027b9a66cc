import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDomain } from '../../src/domain/load.js';
import type { DomainRegistry } from '../../src/domain/registry.js';
import { DatasetCache } from '../../src/executor/run/dataset-cache.js';
import type { RunEnvironment, RunJob } from '../../src/executor/run/job.js';
import { runScenario } from '../../src/executor/run/run-scenario.js';
import { openStore, type Store } from '../../src/store/store.js';
import { createTestDatabase, type TestDatabase } from '../support/dialects.js';
import { TEST_DOMAIN } from '../fixtures/test-domain-path.js';

const silent = { info: () => {}, warn: () => {}, error: () => {} };
const items = (weights: number[]) =>
  JSON.stringify({ items: { columns: [{ name: 'name', type: 'string' }, { name: 'weight', type: 'float' }], rows: weights.map((w, i) => [`i${i}`, w]) } });

/** The run core alone: no threads, no queue; the dataset comes from a real store through the cache. */
describe('running one scenario with the shared run core', () => {
  let database: TestDatabase;
  let store: Store;
  let domain: DomainRegistry;
  let cache: DatasetCache;
  const sessionId = randomUUID();
  beforeAll(async () => {
    database = await createTestDatabase('sqlite');
    store = await openStore(database.url);
    domain = await loadDomain(TEST_DOMAIN);
    cache = new DatasetCache(store.datasets);
    await store.sessions.insert({ id: sessionId, displayName: 'core', createdAt: new Date().toISOString() });
    await putItems([1.5, 2.5]);
  });
  afterAll(async () => {
    await store?.close();
    await database?.drop();
  });

  const putItems = (weights: number[]) =>
    store.datasets.put({ sessionId, key: 'items', kind: 'master', createdAt: new Date().toISOString(), version: randomUUID(), tablesJson: items(weights) });
  const job = (algoName: string, algoParams: Record<string, unknown> = {}, dataParams: Record<string, unknown> = {}): RunJob => ({
    scenarioId: randomUUID(),
    sessionId,
    datasetKey: 'items',
    deadline: Date.now() + 3_600_000,
    seed: 7,
    algoName,
    algoParams,
    dataParams,
  });
  const env = (overrides: Partial<RunEnvironment> = {}): RunEnvironment => ({
    domain,
    datasets: cache,
    progress: () => {},
    signal: new AbortController().signal,
    log: silent,
    ...overrides,
  });

  it('runs the algorithm on the prepared data and computes every KPI', async () => {
    const outcome = await runScenario(job('Sum', { offset: 1 }, { scale: 10 }), env());
    expect(outcome).toEqual({ status: 'COMPLETE', resultJson: JSON.stringify({ total: 41, count: 2 }), kpis: { total: 41, count: 2 } });
  });

  it('reports only the algorithm’s own progress: the completed state, not a closing report, says 1', async () => {
    const reported: number[] = [];
    expect(await runScenario(job('Sum'), env({ progress: (p) => reported.push(p) }))).toMatchObject({ status: 'COMPLETE' });
    // Sum never reports; a closing report would be announced before its completed event.
    expect(reported).toEqual([]);
  });

  it('serves a dataset from the cache until it is replaced, then reads the new version', async () => {
    const first = await cache.load(sessionId, 'items');
    expect(await cache.load(sessionId, 'items')).toBe(first);
    await putItems([5]);
    const replaced = await cache.load(sessionId, 'items');
    expect(replaced).not.toBe(first);
    expect(replaced.tables.items!.rows).toEqual([['i0', 5]]);
    expect(await runScenario(job('Sum'), env())).toMatchObject({ status: 'COMPLETE', kpis: { total: 5, count: 1 } });
    await putItems([1.5, 2.5]);
  });

  it('fails, naming the parameter, when a stored value no longer fits the declarations', async () => {
    const outcome = await runScenario(job('Sum', { offset: 1000 }), env());
    expect(outcome).toMatchObject({ status: 'FAILED', message: expect.stringContaining('offset') });
  });

  it('fails when the algorithm is not registered', async () => {
    expect(await runScenario(job('Gone'), env())).toMatchObject({ status: 'FAILED', message: expect.stringContaining("'Gone'") });
  });

  it('fails with a message and a stack when the algorithm throws a string', async () => {
    const outcome = await runScenario(job('Fail', { mode: 'string' }), env());
    expect(outcome).toMatchObject({ status: 'FAILED', message: 'a thrown string' });
    expect(outcome.status === 'FAILED' && outcome.stack).toEqual(expect.any(String));
  });

  it('stops a synchronous loop at its next progress report once the signal is aborted', async () => {
    const controller = new AbortController();
    const outcome = await runScenario(
      job('Spin', { duration_ms: 600_000 }),
      env({ signal: controller.signal, progress: () => controller.abort(new Error('cancelled by the test')) }),
    );
    expect(outcome).toMatchObject({ status: 'FAILED', message: 'cancelled by the test' });
  });

  it('ends an awaiting algorithm as soon as the signal is aborted', async () => {
    const controller = new AbortController();
    const run = runScenario(job('Sleep', { duration_ms: 600_000 }), env({ signal: controller.signal }));
    controller.abort(new Error('cancelled while sleeping'));
    expect(await run).toMatchObject({ status: 'FAILED', message: 'cancelled while sleeping' });
  });
});
