import { randomUUID } from 'node:crypto';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { loadDomain } from '../../src/domain/load.js';
import { DistributedExecutor } from '../../src/executor/distributed/distributed-executor.js';
import { RunEvents } from '../../src/executor/events.js';
import type { Executor } from '../../src/executor/executor.js';
import { ScenarioService } from '../../src/scenarios/service.js';
import type { ScenarioRef } from '../../src/store/scenarios-repository.js';
import { openStore, type Store } from '../../src/store/store.js';
import { TEST_DOMAIN } from '../fixtures/test-domain-path.js';
import { createTestDatabase, DIALECTS } from '../support/dialects.js';
import { until } from '../support/until.js';
import { startHarness } from './harness.js';

const ITEMS = JSON.stringify({ items: { columns: [{ name: 'name', type: 'string' }, { name: 'weight', type: 'float' }], rows: [['a', 1.5]] } });

/** What a test needs of an executor under test: its store and scenarios, and a way to stop it. */
interface Subject {
  readonly store: Store;
  readonly scenarios: ScenarioService;
  session(): Promise<string>;
  close(): Promise<void>;
}

/**
 * `max_running_per_session` (docs/api/runs.md, "Several runs of a session at once"): up to N runs of
 * one session PROCESSING together, on both executors, started in the session's FIFO order; a cancel
 * stops its run alone; a free slot goes to the session running fewest. Observed in the store only.
 */
type Dialect = (typeof DIALECTS)[number];

function slotTests(name: string, open: (dialect: Dialect, workers: number, max: number) => Promise<Subject>, dialects: readonly Dialect[]) {
  describe.each(dialects)(`${name}: several runs of one session at once, on %s`, (dialect) => {
    // Each test on an executor and store of its own: two executors on one store would take each other's runs.
    const opened: Subject[] = [];
    afterAll(async () => {
      for (const subject of opened) await subject.close();
    });
    const start = async (workers: number, max: number) => {
      const subject = await open(dialect, workers, max);
      opened.push(subject);
      return subject;
    };
    const sleeping = async (s: Subject, sessionId: string, count: number): Promise<ScenarioRef[]> => {
      const refs: ScenarioRef[] = [];
      for (let i = 0; i < count; i++) {
        const view = await s.scenarios.create(sessionId, { tag: randomUUID(), datasetKey: 'items', algoName: 'Sleep', algoParams: { duration_ms: 600_000 } });
        refs.push({ sessionId, id: view.id });
      }
      for (const ref of refs) await s.scenarios.run(ref);
      return refs;
    };
    const statuses = async (s: Subject, refs: readonly ScenarioRef[]) => Promise.all(refs.map(async (ref) => (await s.store.scenarios.status(ref))?.status));
    const processing = async (s: Subject, refs: readonly ScenarioRef[]) => (await statuses(s, refs)).filter((status) => status === 'PROCESSING').length;
    const cancelAll = async (s: Subject, refs: readonly ScenarioRef[]) => {
      for (const ref of refs) await s.scenarios.cancel(ref);
    };

    it('runs three of a session together, the first three queued, and a cancel of one stops it alone while the fourth takes its slot', async () => {
      // A thread more than the limit: the session could use it, and must not.
      const s = await start(4, 3);
      const refs = await sleeping(s, await s.session(), 5);
      await until('three runs of the session to be PROCESSING', async () => (await processing(s, refs)) === 3, { within: 30_000 });
      expect(await statuses(s, refs)).toEqual(['PROCESSING', 'PROCESSING', 'PROCESSING', 'QUEUED', 'QUEUED']);

      await s.scenarios.cancel(refs[1]!);
      await until('the fourth run to take the freed slot', async () => (await statuses(s, refs))[3] === 'PROCESSING', { within: 30_000 });
      expect(await statuses(s, refs)).toEqual(['PROCESSING', 'FAILED', 'PROCESSING', 'PROCESSING', 'QUEUED']);
      expect((await s.scenarios.get(refs[1]!)).error).toMatchObject({ code: 'CANCELLED' });
      await cancelAll(s, [refs[0]!, refs[2]!, refs[3]!, refs[4]!]);
    }, 90_000);

    it('gives a freed slot to the session running fewest, not to the session that freed it', async () => {
      const s = await start(3, 3);
      const wide = await sleeping(s, await s.session(), 4);
      await until('three runs of the first session to be PROCESSING', async () => (await processing(s, wide)) === 3, { within: 30_000 });
      const [other] = await sleeping(s, await s.session(), 1);
      // Every thread is taken: the other session waits.
      expect(await statuses(s, [other!])).toEqual(['QUEUED']);
      await s.scenarios.cancel(wide[0]!);
      await until('the other session to take the freed slot', async () => (await statuses(s, [other!]))[0] === 'PROCESSING', { within: 30_000 });
      expect(await statuses(s, wide)).toEqual(['FAILED', 'PROCESSING', 'PROCESSING', 'QUEUED']);
      await cancelAll(s, [...wide.slice(1), other!]);
    }, 90_000);

    it('keeps one run of a session at a time by default (the spec’s rule), a free thread left idle', async () => {
      const s = await start(2, 1);
      const refs = await sleeping(s, await s.session(), 2);
      await until('the first run to be PROCESSING', async () => (await statuses(s, refs))[0] === 'PROCESSING', { within: 30_000 });
      // A run of another session proves the second thread is up and free for anything claimable.
      const [probe] = await sleeping(s, await s.session(), 1);
      await until('the other session to run', async () => (await statuses(s, [probe!]))[0] === 'PROCESSING', { within: 30_000 });
      expect(await statuses(s, refs)).toEqual(['PROCESSING', 'QUEUED']);
      await s.scenarios.cancel(refs[0]!);
      await s.scenarios.cancel(probe!);
      await until('the second run to start', async () => (await statuses(s, refs))[1] === 'PROCESSING', { within: 30_000 });
      await cancelAll(s, [refs[1]!]);
    }, 90_000);
  });
}

slotTests(
  'local executor',
  async (dialect, workers, max) => {
    const own = await createTestDatabase(dialect);
    const h = await startHarness(own, { workers, maxRunningPerSession: max, cancelGraceMs: 300 });
    return { store: h.store, scenarios: h.scenarios, session: () => h.session(), close: async () => (await h.close(), await own.drop()) };
  },
  DIALECTS,
);

slotTests(
  'distributed executor',
  async (_dialect, workers, max) => {
    const own = await createTestDatabase('postgres');
    const store = await openStore(own.url);
    const log = pino({ level: 'silent' });
    const executor: Executor = new DistributedExecutor({
      store,
      events: new RunEvents(),
      log,
      databaseUrl: own.url,
      domain: TEST_DOMAIN,
      workers,
      maxRunningPerSession: max,
      cancelGraceMs: 300,
    });
    const domain = await loadDomain(TEST_DOMAIN);
    const settings = { autorun: false, autocreate: false, defaultAlgo: undefined, defaultAlgoParams: {} };
    const scenarios = new ScenarioService({ store, domain, executor, settings, log });
    await executor.start();
    return {
      store,
      scenarios,
      async session() {
        const sessionId = randomUUID();
        const now = new Date().toISOString();
        await store.sessions.insert({ id: sessionId, displayName: randomUUID(), createdAt: now });
        await store.datasets.put({ sessionId, key: 'items', kind: 'master', createdAt: now, version: randomUUID(), tablesJson: ITEMS });
        return sessionId;
      },
      async close() {
        await executor.close();
        await store.close();
        await own.drop();
      },
    };
  },
  DIALECTS.filter((d) => d === 'postgres'),
);
