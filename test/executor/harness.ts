import { randomUUID } from 'node:crypto';
import pino from 'pino';
import { loadDomain } from '../../src/domain/load.js';
import type { DomainRegistry } from '../../src/domain/registry.js';
import { RunEvents, type RunEventMap, type ScenarioEventName } from '../../src/executor/events.js';
import { LocalExecutor } from '../../src/executor/local/local-executor.js';
import type { TimeLimits } from '../../src/executor/queue/time-limits.js';
import { ScenarioService, type CreateScenarioInput } from '../../src/scenarios/service.js';
import type { ScenarioRef } from '../../src/store/scenarios-repository.js';
import { openStore, type Store } from '../../src/store/store.js';
import type { TestDatabase } from '../support/dialects.js';
import { TEST_DOMAIN } from '../fixtures/test-domain-path.js';

/** Everything one event is about, recorded in arrival order. */
export type RecordedEvent = { [K in ScenarioEventName]: { name: K } & RunEventMap[K] }[ScenarioEventName];

/**
 * A real store, the real local executor (worker threads) and the scenario service on the test
 * domain, without HTTP: executor behaviour observed through its events and the database.
 */
export interface Harness {
  readonly store: Store;
  readonly domain: DomainRegistry;
  readonly events: RunEvents;
  readonly executor: LocalExecutor;
  readonly scenarios: ScenarioService;
  /** Every run event so far, in order. */
  readonly recorded: RecordedEvent[];
  /** Every log line of the main thread, parsed. */
  readonly logs: Record<string, unknown>[];
  /** A new session holding dataset `items` (weights 1.5 and 2.5). */
  session(): Promise<string>;
  create(sessionId: string, input: Partial<CreateScenarioInput> & { algoName: string }): Promise<ScenarioRef>;
  /** Creates and runs. */
  start(sessionId: string, input: Partial<CreateScenarioInput> & { algoName: string }): Promise<ScenarioRef>;
  /** Resolves with the first event of `name` about the scenario (past or future); rejects after a deadline. */
  next<K extends ScenarioEventName>(name: K, ref: ScenarioRef): Promise<RunEventMap[K]>;
  close(): Promise<void>;
}

export interface HarnessOptions {
  readonly workers?: number;
  readonly cancelGraceMs?: number;
  readonly progressFlushMs?: number;
  readonly timeLimits?: TimeLimits;
  /** Each run thread's heap limit in MiB. */
  readonly threadHeapLimitMb?: number;
  /** How many runs of one session may be PROCESSING at once (`max_running_per_session`). */
  readonly maxRunningPerSession?: number;
  /** Open the store as its owning process (SQLite: take the store lock). */
  readonly owner?: boolean;
}

const ITEMS = JSON.stringify({
  items: { columns: [{ name: 'name', type: 'string' }, { name: 'weight', type: 'float' }], rows: [['a', 1.5], ['b', 2.5]] },
});

/** How long `next` waits for an event before failing the test with what it saw. */
const EVENT_DEADLINE_MS = 30_000;

/**
 * Stores with a running executor of this file. A store has one executor (on SQLite its owner holds
 * the store lock; on PostgreSQL the distributed executor is the one for many): two local executors on
 * one store take each other's runs (one's queue sweep claims a run the other was told of, which the
 * other then waits for in vain), so a test that starts a second is refused here rather than flaky.
 */
const storesWithExecutor = new Set<string>();

export async function startHarness(database: TestDatabase, options: HarnessOptions = {}): Promise<Harness> {
  const runsScenarios = (options.workers ?? 2) > 0;
  if (runsScenarios && storesWithExecutor.has(database.url)) {
    throw new Error(`an executor already runs on ${database.url}: give this harness a test database of its own`);
  }
  if (runsScenarios) storesWithExecutor.add(database.url);
  const store = await openStore(database.url, { owner: options.owner ?? false }).catch((err: unknown) => {
    storesWithExecutor.delete(database.url);
    throw err;
  });
  const domain = await loadDomain(TEST_DOMAIN);
  const recorded: RecordedEvent[] = [];
  const logs: Record<string, unknown>[] = [];
  const log = pino({ level: 'info' }, { write: (line: string) => void logs.push(JSON.parse(line) as Record<string, unknown>) });
  const events = new RunEvents();
  const names: ScenarioEventName[] = ['run:queued', 'run:started', 'run:progress', 'run:completed', 'run:failed', 'run:cancelled', 'run:reset'];
  for (const name of names) events.on(name, (event) => recorded.push({ name, ...event } as RecordedEvent));
  const executor = new LocalExecutor({
    store,
    events,
    log,
    workers: options.workers ?? 2,
    databaseUrl: database.url,
    domain: TEST_DOMAIN,
    ...(options.cancelGraceMs === undefined ? {} : { cancelGraceMs: options.cancelGraceMs }),
    ...(options.progressFlushMs === undefined ? {} : { progressFlushMs: options.progressFlushMs }),
    ...(options.timeLimits === undefined ? {} : { timeLimits: options.timeLimits }),
    ...(options.threadHeapLimitMb === undefined ? {} : { threadHeapLimitMb: options.threadHeapLimitMb }),
    ...(options.maxRunningPerSession === undefined ? {} : { maxRunningPerSession: options.maxRunningPerSession }),
  });
  const settings = { autorun: false, autocreate: false, defaultAlgo: undefined, defaultAlgoParams: {} };
  const scenarios = new ScenarioService({ store, domain, executor, settings, log });
  await executor.start().catch(async (err: unknown) => {
    await store.close();
    storesWithExecutor.delete(database.url);
    throw err;
  });

  const create: Harness['create'] = async (sessionId, input) => {
    const view = await scenarios.create(sessionId, { tag: randomUUID(), datasetKey: 'items', ...input });
    return { sessionId, id: view.id };
  };
  const next: Harness['next'] = (name, ref) =>
    new Promise((resolve, reject) => {
      const past = recorded.find((e) => e.name === name && e.scenarioId === ref.id);
      if (past) return resolve(past as never);
      // A bound on a hang (the event never comes), not a timing assertion.
      const timer = setTimeout(() => {
        off();
        reject(new Error(`no ${name} event for scenario ${ref.id} within ${EVENT_DEADLINE_MS} ms; saw ${JSON.stringify(recorded.filter((e) => e.scenarioId === ref.id))}`));
      }, EVENT_DEADLINE_MS);
      const off = events.on(name, (event) => {
        if (event.scenarioId !== ref.id) return;
        off();
        clearTimeout(timer);
        resolve(event);
      });
    });
  return {
    store,
    domain,
    events,
    executor,
    scenarios,
    recorded,
    logs,
    async session() {
      const id = randomUUID();
      const now = new Date().toISOString();
      await store.sessions.insert({ id, displayName: `session ${id}`, createdAt: now });
      await store.datasets.put({ sessionId: id, key: 'items', kind: 'master', createdAt: now, version: randomUUID(), tablesJson: ITEMS });
      return id;
    },
    create,
    async start(sessionId, input) {
      const ref = await create(sessionId, input);
      await scenarios.run(ref);
      return ref;
    },
    next,
    async close() {
      await executor.close();
      await store.close();
      if (runsScenarios) storesWithExecutor.delete(database.url);
    },
  };
}
