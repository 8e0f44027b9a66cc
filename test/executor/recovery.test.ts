import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { INTERRUPTED_TWICE } from '../../src/model/run-state/run-error.js';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../support/dialects.js';
import { startHarness, type Harness } from './harness.js';

describe.each(DIALECTS)('restart recovery on %s', (dialect) => {
  let database: TestDatabase;
  const open: Harness[] = [];
  beforeEach(async () => {
    database = await createTestDatabase(dialect);
  });
  afterEach(async () => {
    await Promise.all(open.splice(0).map((h) => h.close()));
    await database?.drop();
  });
  const start = async (workers: number) => {
    const h = await startHarness(database, { workers });
    open.push(h);
    return h;
  };
  /** What a process killed mid-run leaves behind: the row PROCESSING under a dead run's token. */
  const simulateCrash = (h: Harness, id: string, attempts: number) =>
    h.store.db
      .updateTable('scenarios')
      .set({ status: 'PROCESSING', attempts, lease_owner: 'a dead process', started_at: new Date().toISOString() })
      .where('id', '=', id)
      .execute();

  it('keeps queued scenarios queued across a restart and runs them in their order', async () => {
    const first = await start(0);
    const session = await first.session();
    const refs = [];
    for (let i = 0; i < 3; i++) refs.push(await first.start(session, { algoName: 'Sum' }));
    expect((await first.scenarios.status(refs[2]!)).status).toBe('QUEUED');
    await first.close();
    open.length = 0;

    const second = await start(1);
    await second.next('run:completed', refs[2]!);
    const started = second.recorded.filter((e) => e.name === 'run:started').map((e) => e.scenarioId);
    expect(started).toEqual(refs.map((r) => r.id));
  });

  it('queues a scenario interrupted once again, ahead of those queued after it, and completes it', async () => {
    const first = await start(0);
    const session = await first.session();
    const interrupted = await first.start(session, { algoName: 'Sum' });
    const later = await first.start(session, { algoName: 'Sum' });
    await simulateCrash(first, interrupted.id, 1);
    await first.close();
    open.length = 0;

    const second = await start(1);
    await second.next('run:completed', later);
    expect(second.recorded.filter((e) => e.scenarioId === interrupted.id).map((e) => e.name)).toEqual([
      'run:queued',
      'run:started',
      'run:completed',
    ]);
    expect(second.recorded[0]).toMatchObject({ name: 'run:queued', scenarioId: interrupted.id, recovered: true });
    expect(second.recorded.find((e) => e.name === 'run:started' && e.scenarioId === interrupted.id)).toMatchObject({ attempt: 2 });
    expect((await second.scenarios.get(interrupted)).status).toBe('COMPLETE');
  });

  it('fails a scenario interrupted a second time with a message saying so', async () => {
    const first = await start(0);
    const session = await first.session();
    const ref = await first.start(session, { algoName: 'Sum' });
    await simulateCrash(first, ref.id, 2);
    await first.close();
    open.length = 0;

    const second = await start(1);
    const scenario = await second.scenarios.get(ref);
    expect(scenario.status).toBe('FAILED');
    expect(scenario.error?.message).toBe(INTERRUPTED_TWICE);
    expect(scenario.error?.message).toContain('interrupted twice');
    expect(scenario.error?.code).toBe('INTERRUPTED');
  });

  it('puts a run stopped by a graceful shutdown back in the queue without counting an interruption', async () => {
    const first = await start(1);
    const session = await first.session();
    const ref = await first.start(session, { algoName: 'Sleep', algoParams: { duration_ms: 600_000 } });
    await first.next('run:started', ref);
    await first.close();
    open.length = 0;

    const second = await start(0);
    expect(await second.store.db.selectFrom('scenarios').select(['status', 'attempts']).where('id', '=', ref.id).executeTakeFirst()).toEqual({
      status: 'QUEUED',
      attempts: 0,
    });
  });

  it('leaves PROCESSING rows alone when this process runs no scenarios (workers 0)', async () => {
    const first = await start(0);
    const session = await first.session();
    const ref = await first.start(session, { algoName: 'Sum' });
    await simulateCrash(first, ref.id, 1);
    const second = await start(0);
    expect((await second.scenarios.status(ref)).status).toBe('PROCESSING');
  });

  it('never leaves a recovered scenario PROCESSING once its run ends', async () => {
    const first = await start(0);
    const session = await first.session();
    const ref = await first.start(session, { algoName: 'Fail' });
    await simulateCrash(first, ref.id, 1);
    await first.close();
    open.length = 0;
    const second = await start(1);
    const failed = await second.next('run:failed', ref);
    expect(failed.code).toBe('ALGORITHM_ERROR');
    const scenario = await second.scenarios.get(ref);
    expect(scenario).toMatchObject({ status: 'FAILED', error: { message: failed.message, code: 'ALGORITHM_ERROR' } });
    expect(second.recorded.filter((e) => e.scenarioId === ref.id).map((e) => e.name)).toEqual(['run:queued', 'run:started', 'run:failed']);
    const row = await second.store.db.selectFrom('scenarios').select(['attempts', 'lease_owner', 'lease_expires_at']).where('id', '=', ref.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ attempts: 2, lease_owner: null, lease_expires_at: null });
  });

  it('runs a recovered scenario without the expired lease its dead run left behind', async () => {
    const first = await start(0);
    const session = await first.session();
    const ref = await first.start(session, { algoName: 'Sleep', algoParams: { duration_ms: 600_000 } });
    await simulateCrash(first, ref.id, 1);
    await first.store.db.updateTable('scenarios').set({ lease_expires_at: new Date(Date.now() - 60_000).toISOString() }).where('id', '=', ref.id).execute();
    await first.close();
    open.length = 0;
    const second = await start(1);
    await second.next('run:started', ref);
    const row = await second.store.db.selectFrom('scenarios').select(['status', 'lease_expires_at']).where('id', '=', ref.id).executeTakeFirstOrThrow();
    expect(row).toEqual({ status: 'PROCESSING', lease_expires_at: null });
  });
});
