import { readFileSync } from 'node:fs';
import { Logger, run, runMigrations, type Job, type Runner } from 'graphile-worker';
import { sql } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { openGraphilePool } from '../../src/executor/distributed/graphile-pool.js';
import {
  forceUnlockWorkers,
  idleQueueHolds,
  queuedWithoutJob,
  removeRunJob,
  rescheduleRunJob,
  RUN_TASK,
  runLockers,
  sessionQueue,
} from '../../src/store/postgres/graphile-queue.js';
import { queuedSession, useTestStore } from '../support/test-store.js';

const silent = new Logger(() => () => {});

/**
 * What the distributed executor relies on in graphile-worker, pinned so that an upgrade that changes
 * it fails here rather than in production: only its public schema is named (never `_private_`
 * tables), and a worker's hold on a named queue shows as its locked job in the `jobs` view.
 */
describe('the graphile-worker public API the run queue uses', () => {
  const store = useTestStore('postgres');
  beforeAll(async () => {
    await runMigrations({ connectionString: store.databaseUrl(), logger: silent });
  });

  it('names no private table of graphile-worker', () => {
    const source = readFileSync(new URL('../../src/store/postgres/graphile-queue.ts', import.meta.url), 'utf8');
    expect(source.replace(/\/\*\*[\s\S]*?\*\//g, '')).not.toMatch(/_private_/);
  });

  it('has the jobs view columns, the job_spec fields in order, and the functions it calls', async () => {
    const db = store().db;
    const view = await sql<{ column_name: string }>`
      select column_name from information_schema.columns where table_schema = 'graphile_worker' and table_name = 'jobs'`.execute(db);
    expect(view.rows.map((r) => r.column_name)).toEqual(expect.arrayContaining(['key', 'queue_name', 'locked_by', 'locked_at']));
    // addRunJobs builds job_spec rows by position.
    const spec = await sql<{ attname: string }>`
      select a.attname from pg_attribute a join pg_type t on t.typrelid = a.attrelid join pg_namespace n on n.oid = t.typnamespace
      where n.nspname = 'graphile_worker' and t.typname = 'job_spec' and a.attnum > 0 and not a.attisdropped order by a.attnum`.execute(db);
    expect(spec.rows.map((r) => r.attname)).toEqual(['identifier', 'payload', 'queue_name', 'run_at', 'max_attempts', 'job_key', 'priority', 'flags']);
    const functions = await sql<{ proname: string }>`
      select distinct p.proname from pg_proc p join pg_namespace n on n.oid = p.pronamespace
      where n.nspname = 'graphile_worker' and p.proname in ('add_jobs', 'add_job', 'remove_job', 'force_unlock_workers', 'reschedule_jobs')`.execute(db);
    expect(functions.rows.map((r) => r.proname).sort()).toEqual(['add_job', 'add_jobs', 'force_unlock_workers', 'remove_job', 'reschedule_jobs']);
  });

  it('sees a worker that holds a run job, by its key and by its session queue, until it is unlocked', async () => {
    const db = store().db;
    const { sessionId, ids } = await queuedSession(store(), 2);
    const first = { scenarioId: ids[0]!, sessionId };
    await rescheduleRunJob(db, { scenarioId: first.scenarioId, queueName: sessionQueue(sessionId) }, { delayMs: 0 });
    // The second QUEUED scenario's job (added by the statement that queued it) is dropped: the
    // reaper's look finds it, and only it.
    await removeRunJob(db, ids[1]!);
    expect((await queuedWithoutJob(db)).map((r) => r.scenarioId)).toEqual([ids[1]]);

    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let taken: Job | undefined;
    // A pool of its own, as the distributed executor gives the runner, ended before the database is
    // dropped: the runner's own pool could still hold a connection then, whose termination by the drop
    // reached the test run as an unhandled error.
    const pgPool = openGraphilePool(store.databaseUrl(), 1);
    const runner: Runner = await run({
      pgPool,
      concurrency: 1,
      noHandleSignals: true,
      pollInterval: 100,
      logger: silent,
      taskList: {
        [RUN_TASK]: async (_payload, helpers) => {
          taken = helpers.job;
          await held;
        },
      },
    });
    try {
      await expect.poll(() => taken?.locked_by, { timeout: 20_000 }).toBeTruthy();
      const worker = taken!.locked_by!;
      expect(await runLockers(db, first)).toEqual([worker]);
      // Another run of the same session: its queue is held by the same worker.
      expect(await runLockers(db, { scenarioId: ids[1]!, sessionId })).toEqual([worker]);
      const holds = await idleQueueHolds(db, 0);
      expect(holds.map((h) => ({ worker: h.worker, queue: h.queue }))).toEqual([{ worker, queue: sessionQueue(sessionId) }]);

      await forceUnlockWorkers(db, [worker]);
      expect(await runLockers(db, first)).toEqual([]);
      expect(await idleQueueHolds(db, 0)).toEqual([]);
    } finally {
      release();
      await runner.stop();
      await pgPool.end();
    }
  });

});
