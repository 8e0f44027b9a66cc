import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadDomain } from '../../src/domain/load.js';
import { DistributedExecutor } from '../../src/executor/distributed/distributed-executor.js';
import { RunEvents, type RunEventMap } from '../../src/executor/events.js';
import { ScenarioService } from '../../src/scenarios/service.js';
import type { ScenarioRef } from '../../src/store/scenarios-repository.js';
import { openStore, type Store } from '../../src/store/store.js';
import { TEST_DOMAIN } from '../fixtures/test-domain-path.js';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../support/dialects.js';
import { until } from '../support/until.js';

const ITEMS = JSON.stringify({ items: { columns: [{ name: 'name', type: 'string' }, { name: 'weight', type: 'float' }], rows: [['a', 1.5]] } });

/**
 * The order runs start in on PostgreSQL: jobs are added in batches and a job goes on with its
 * session's next runs, yet every session stays FIFO and no run overtakes an older one of another
 * session waiting for a worker.
 */
describe.runIf(DIALECTS.includes('postgres'))('distributed run order', () => {
  let database: TestDatabase;
  let store: Store;
  const started: string[] = [];
  let executor: DistributedExecutor;
  let scenarios: ScenarioService;

  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    store = await openStore(database.url);
    const events = new RunEvents();
    events.on('run:started', (e: RunEventMap['run:started']) => started.push(e.scenarioId));
    const log = pino({ level: 'silent' });
    executor = new DistributedExecutor({ store, events, log, databaseUrl: database.url, domain: TEST_DOMAIN, workers: 1 });
    const domain = await loadDomain(TEST_DOMAIN);
    const settings = { autorun: false, autocreate: false, defaultAlgo: undefined, defaultAlgoParams: {} };
    scenarios = new ScenarioService({ store, domain, executor, settings, log });
    await executor.start();
  });
  afterAll(async () => {
    await executor?.close();
    await store?.close();
    await database?.drop();
  });

  const newSession = async (): Promise<string> => {
    const sessionId = randomUUID();
    const now = new Date().toISOString();
    await store.sessions.insert({ id: sessionId, displayName: randomUUID(), createdAt: now });
    await store.datasets.put({ sessionId, key: 'items', kind: 'master', createdAt: now, version: randomUUID(), tablesJson: ITEMS });
    return sessionId;
  };
  const create = async (sessionId: string, algoName: string, algoParams: Record<string, unknown> = {}): Promise<ScenarioRef> => {
    const view = await scenarios.create(sessionId, { tag: randomUUID(), datasetKey: 'items', algoName, algoParams });
    return { sessionId, id: view.id };
  };
  const finished = async (refs: readonly ScenarioRef[]) => {
    for (const ref of refs) if ((await store.scenarios.status(ref))?.status !== 'COMPLETE') return false;
    return true;
  };
  const jobsOf = async (refs: readonly ScenarioRef[]) => {
    const { rows } = await sql<{ n: string }>`select count(*) as n from graphile_worker.jobs where key = any(${refs.map((r) => r.id)}::text[])`.execute(store.db);
    return Number(rows[0]!.n);
  };

  it('starts the runs of a session queued in quick succession in the order they were queued', async () => {
    const sessionId = await newSession();
    const refs: ScenarioRef[] = [];
    for (let i = 0; i < 40; i++) refs.push(await create(sessionId, 'Sum'));
    started.length = 0;
    // Queued without waiting for each other: their jobs are added while earlier ones still are.
    for (const ref of refs) await scenarios.run(ref);
    await until('the session to drain', () => finished(refs), { within: 60_000 });
    expect(started).toEqual(refs.map((r) => r.id));
    // The runs the session's job went on with leave no job of their own behind.
    await until('their jobs to be gone', async () => (await jobsOf(refs)) === 0);
  }, 120_000);

  it("goes on with a session's next run only while that run is the oldest queued", async () => {
    const a = await newSession();
    const b = await newSession();
    const a1 = await create(a, 'Sleep', { duration_ms: 500 });
    const b1 = await create(b, 'Sum');
    const a2 = await create(a, 'Sum');
    const b2 = await create(b, 'Sum');
    started.length = 0;
    for (const ref of [a1, b1, a2, b2]) await scenarios.run(ref);
    await until('both sessions to drain', () => finished([a1, b1, a2, b2]), { within: 60_000 });
    expect(started).toEqual([a1.id, b1.id, a2.id, b2.id]);
  }, 120_000);
});
