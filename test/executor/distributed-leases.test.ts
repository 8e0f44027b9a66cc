import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/dialects.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { until } from '../support/until.js';

/**
 * The distributed executor (PostgreSQL) through the real app with its in-process graphile-worker:
 * rows are put into the states a dead worker or a crashed API node leaves behind, and the executor
 * must repair them on its own.
 */
// Only an explicit SCENARIST_TEST_DIALECTS without postgres leaves this out.
describe.runIf(DIALECTS.includes('postgres'))('distributed executor recovery on postgres', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp('postgres', { workers: 2 });
  });
  afterAll(() => t?.close());

  const db = () => t.runtime.services.store.db;
  const api = (method: 'GET' | 'POST', url: string, payload?: object) =>
    t.app.inject({ method, url: `/api/v1/sessions/main${url}`, ...(payload ? { payload } : {}) });

  async function createInstant(tag: string): Promise<string> {
    const res = await api('POST', '/scenarios', { tag, dataset_key: 'example', algo_name: 'Instant' });
    expect(res.statusCode).toBe(201);
    return res.json<{ id: string }>().id;
  }

  function settled(id: string): Promise<{ status: string; error: { message: string } | null }> {
    return until(`scenario ${id} to settle`, async () => {
      const scenario = (await api('GET', `/scenarios/${id}`)).json<{ status: string; error: { message: string } | null }>();
      return (scenario.status === 'COMPLETE' || scenario.status === 'FAILED') && scenario;
    }, { every: 100 });
  }

  const past = () => new Date(Date.now() - 60_000).toISOString();

  it('queues again and completes a run whose worker stopped renewing its lease', async () => {
    const id = await createInstant('dead worker once');
    await db()
      .updateTable('scenarios')
      .set({ status: 'PROCESSING', attempts: 1, lease_owner: 'a-dead-worker', lease_expires_at: past(), started_at: past(), queue_order: 1 })
      .where('id', '=', id)
      .execute();
    expect((await settled(id)).status).toBe('COMPLETE');
    const row = await db().selectFrom('scenarios').select(['attempts']).where('id', '=', id).executeTakeFirstOrThrow();
    expect(row.attempts).toBe(2);
  });

  it('fails a run whose worker died on its second attempt, saying so', async () => {
    const id = await createInstant('dead worker twice');
    await db()
      .updateTable('scenarios')
      .set({ status: 'PROCESSING', attempts: 2, lease_owner: 'another-dead-worker', lease_expires_at: past(), started_at: past(), queue_order: 1 })
      .where('id', '=', id)
      .execute();
    const scenario = await settled(id);
    expect(scenario.status).toBe('FAILED');
    expect(scenario.error?.message).toMatch(/interrupted twice/);
  });

  it('runs a QUEUED scenario that lost its job (a crash between queueing and adding the job)', async () => {
    const id = await createInstant('queued without job');
    await db().updateTable('scenarios').set({ status: 'QUEUED', queue_order: 1, queued_at: past() }).where('id', '=', id).execute();
    expect((await settled(id)).status).toBe('COMPLETE');
  });

  it('runs the queued scenarios of one session to completion one after another', async () => {
    const ids = await Promise.all(['a', 'b', 'c', 'd'].map((tag) => createInstant(`serial ${tag}`)));
    for (const id of ids) expect((await api('POST', `/scenarios/${id}/run`)).statusCode).toBe(202);
    for (const id of ids) expect((await settled(id)).status).toBe('COMPLETE');
  });
});
