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
 * graphile-worker job failures are not control flow: a job that cannot run now is put back without
 * failing, so it neither backs off nor loses its place to the later jobs of its session.
 */
describe.runIf(DIALECTS.includes('postgres'))('distributed jobs put back after a graceful worker stop', () => {
  let database: TestDatabase;
  let store: Store;
  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    store = await openStore(database.url);
  });
  afterAll(async () => {
    await store?.close();
    await database?.drop();
  });

  const executorWith = async (started: string[]) => {
    const events = new RunEvents();
    events.on('run:started', (e: RunEventMap['run:started']) => started.push(e.scenarioId));
    const log = pino({ level: 'silent' });
    const executor = new DistributedExecutor({ store, events, log, databaseUrl: database.url, domain: TEST_DOMAIN, workers: 1 });
    const domain = await loadDomain(TEST_DOMAIN);
    const settings = { autorun: false, autocreate: false, defaultAlgo: undefined, defaultAlgoParams: {} };
    const scenarios = new ScenarioService({ store, domain, executor, settings, log });
    await executor.start();
    return { executor, scenarios };
  };

  it('keeps the stopped run first in its session and runs it at once on the next worker', async () => {
    const sessionId = randomUUID();
    const now = new Date().toISOString();
    await store.sessions.insert({ id: sessionId, displayName: 'reschedule', createdAt: now });
    await store.datasets.put({ sessionId, key: 'items', kind: 'master', createdAt: now, version: randomUUID(), tablesJson: ITEMS });

    const firstStarts: string[] = [];
    const first = await executorWith(firstStarts);
    const refs: ScenarioRef[] = [];
    for (const [algoName, algoParams] of [['Sleep', { duration_ms: 1_500 }], ['Sum', {}], ['Sum', {}]] as const) {
      const view = await first.scenarios.create(sessionId, { tag: randomUUID(), datasetKey: 'items', algoName, algoParams });
      refs.push({ sessionId, id: view.id });
      await first.scenarios.run(refs.at(-1)!);
    }
    const [head, second, third] = refs as [ScenarioRef, ScenarioRef, ScenarioRef];
    await until('the first worker to start the head run', () => firstStarts.includes(head.id));
    await first.executor.close();

    // Back in the queue, and its job was put back without a failure: no attempt, no error, no backoff.
    const { rows } = await sql<{ attempts: number; last_error: string | null; late: boolean }>`
      select attempts, last_error, run_at > now() as late from graphile_worker.jobs where key = ${head.id}`.execute(store.db);
    expect(rows).toEqual([{ attempts: 0, last_error: null, late: false }]);
    expect((await store.scenarios.status(head))?.status).toBe('QUEUED');

    const nextStarts: string[] = [];
    const next = await executorWith(nextStarts);
    try {
      await until('the session to drain', async () => (await store.scenarios.status(third))?.status === 'COMPLETE', { within: 60_000 });
      expect(nextStarts).toEqual([head.id, second.id, third.id]);
    } finally {
      await next.executor.close();
    }
  }, 120_000);
});
