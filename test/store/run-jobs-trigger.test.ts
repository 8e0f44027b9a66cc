import { randomUUID } from 'node:crypto';
import { Logger, runMigrations } from 'graphile-worker';
import { sql, type Kysely } from 'kysely';
import { beforeAll, describe, expect, it } from 'vitest';
import { changeFor } from '../../src/model/run-state/changes.js';
import type { Database } from '../../src/store/database.js';
import { RUN_TASK, sessionQueue } from '../../src/store/postgres/graphile-queue.js';
import { batchWrites } from '../../src/store/scenario-batch-writes.js';
import { queuedSession, useTestStore } from '../support/test-store.js';

const silent = new Logger(() => () => {});

interface JobRow {
  key: string;
  queue_name: string;
  task_identifier: string;
  run_at: Date;
}

async function jobsOf(db: Kysely<Database>, ids: readonly string[]): Promise<JobRow[]> {
  const { rows } = await sql<JobRow>`
    select key, queue_name, task_identifier, run_at from graphile_worker.jobs where key = any(${[...ids]}::text[]) order by run_at`.execute(db);
  return rows;
}

async function queueOrderOf(db: Kysely<Database>, id: string): Promise<number> {
  const row = await db.selectFrom('scenarios').select('queue_order').where('id', '=', id).executeTakeFirstOrThrow();
  return Number(row.queue_order);
}

/** graphile-worker's `run_at` of a run: a fixed instant plus `queue_order` microseconds (milliseconds in a Date). */
const runAtOf = (queueOrder: number) => new Date(Date.UTC(2000, 0, 1) + queueOrder / 1000);

/**
 * PostgreSQL: the statement that queues a run adds its graphile-worker job (migration 0020), so the
 * job exists if and only if the QUEUED state committed.
 */
describe('the run job added by the statement that queues a run (PostgreSQL)', () => {
  const store = useTestStore('postgres');
  beforeAll(async () => {
    await runMigrations({ connectionString: store.databaseUrl(), logger: silent });
  });

  it('gives a queued run its job: keyed by the scenario, in its session queue, due by its queue order', async () => {
    const { sessionId, ids } = await queuedSession(store(), 2);
    const jobs = await jobsOf(store().db, ids);
    expect(jobs.map((j) => j.key)).toEqual(ids);
    for (const [i, job] of jobs.entries()) {
      expect(job).toMatchObject({ queue_name: sessionQueue(sessionId), task_identifier: RUN_TASK });
      expect(job.run_at.getTime()).toBe(runAtOf(await queueOrderOf(store().db, ids[i]!)).getTime());
    }
  });

  it('adds no job for a queuing that rolls back', async () => {
    const { sessionId, ids } = await queuedSession(store(), 1);
    const id = randomUUID();
    await store().scenarios.insert({ id, sessionId, tag: 'rolled back', datasetKey: 'items', algoName: 'Sum', algoParamsJson: '{}', dataParamsJson: '{}', createdAt: new Date().toISOString() });
    const failure = new Error('rolled back on purpose');
    await expect(
      store().db.transaction().execute(async (trx) => {
        await trx.updateTable('scenarios').set({ status: 'QUEUED', queue_order: 1_000_000 }).where('id', '=', id).execute();
        expect(await jobsOf(trx, [id])).toHaveLength(1);
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect(await jobsOf(store().db, [id])).toEqual([]);
    expect(await jobsOf(store().db, ids)).toHaveLength(1);
  });

  it('gives every run of a batch its job, in queue order', async () => {
    const { sessionId } = await queuedSession(store(), 0);
    const targets: { id: string; seq: number }[] = [];
    for (let i = 0; i < 3; i++) {
      const id = randomUUID();
      await store().scenarios.insert({ id, sessionId, tag: `batch ${i}`, datasetKey: 'items', algoName: 'Sum', algoParamsJson: '{}', dataParamsJson: '{}', createdAt: new Date().toISOString() });
      const { seq } = await store().db.selectFrom('scenarios').select('seq').where('id', '=', id).executeTakeFirstOrThrow();
      targets.push({ id, seq: Number(seq) });
    }
    await store().db.transaction().execute((trx) => batchWrites.queue(trx, sessionId, targets, changeFor('run'), new Date().toISOString()));
    expect((await jobsOf(store().db, targets.map((t) => t.id))).map((j) => j.key)).toEqual(targets.map((t) => t.id));
  });

  it('gives a scenario inserted QUEUED (an experiment created queued) its job', async () => {
    const { sessionId } = await queuedSession(store(), 0);
    const id = randomUUID();
    await store()
      .db.insertInto('scenarios')
      .values({ id, session_id: sessionId, tag: 'inserted queued', dataset_key: 'items', algo_name: 'Sum', algo_params: '{}', data_params: '{}', status: 'QUEUED', progress: 0, attempts: 0, queue_order: 2_000_000, queued_at: new Date().toISOString(), created_at: new Date().toISOString() })
      .execute();
    expect((await jobsOf(store().db, [id])).map((j) => j.key)).toEqual([id]);
  });

  it('gives the QUEUED rows of a many-row insert their jobs, in queue order, and the others none', async () => {
    const { sessionId } = await queuedSession(store(), 0);
    const now = new Date().toISOString();
    const rows = Array.from({ length: 6 }, (_, i) => ({
      id: randomUUID(),
      session_id: sessionId,
      tag: `inserted ${i}`,
      dataset_key: 'items',
      algo_name: 'Sum',
      algo_params: '{}',
      data_params: '{}',
      status: i % 3 === 2 ? ('CREATED' as const) : ('QUEUED' as const),
      progress: 0,
      attempts: 0,
      // Inserted in an order other than the queue's.
      queue_order: i % 3 === 2 ? null : 3_000_000 - i,
      queued_at: i % 3 === 2 ? null : now,
      created_at: now,
    }));
    await store().db.insertInto('scenarios').values(rows).execute();
    const queued = rows.filter((r) => r.status === 'QUEUED');
    const jobs = await jobsOf(store().db, rows.map((r) => r.id));
    expect(jobs.map((j) => j.key)).toEqual([...queued].sort((a, b) => a.queue_order! - b.queue_order!).map((r) => r.id));
    for (const job of jobs) expect(job).toMatchObject({ queue_name: sessionQueue(sessionId), task_identifier: RUN_TASK });
  });

  it('adds no job for a change that does not queue (a claim, a completion)', async () => {
    const { ids } = await queuedSession(store(), 1);
    await sql`select graphile_worker.remove_job(${ids[0]!}::text)`.execute(store().db);
    await store().db.updateTable('scenarios').set({ status: 'PROCESSING' }).where('id', '=', ids[0]!).execute();
    await store().db.updateTable('scenarios').set({ status: 'COMPLETE' }).where('id', '=', ids[0]!).execute();
    expect(await jobsOf(store().db, ids)).toEqual([]);
  });

  it('queues a run without graphile-worker schema (a store only migrated), leaving the job to the reaper', async () => {
    const { sessionId, ids } = await queuedSession(store(), 1);
    const id = randomUUID();
    await store().scenarios.insert({ id, sessionId, tag: 'no schema', datasetKey: 'items', algoName: 'Sum', algoParamsJson: '{}', dataParamsJson: '{}', createdAt: new Date().toISOString() });
    const undo = new Error('undo the schema drop');
    await expect(
      store().db.transaction().execute(async (trx) => {
        // DDL is transactional on PostgreSQL: the schema is back once this rolls back.
        await sql`drop schema graphile_worker cascade`.execute(trx);
        const queued = await trx.updateTable('scenarios').set({ status: 'QUEUED', queue_order: 3_000_000 }).where('id', '=', id).returning('status').execute();
        expect(queued).toEqual([{ status: 'QUEUED' }]);
        throw undo;
      }),
    ).rejects.toBe(undo);
    expect(await jobsOf(store().db, ids)).toHaveLength(1);
  });
});
