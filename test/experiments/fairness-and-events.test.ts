import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { injectSender, ScenarioClient, type Reply, type Send } from '../fixtures/scenario-client.js';
import { DIALECTS } from '../support/dialects.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { until } from '../support/until.js';

describe.each(DIALECTS)('experiments beside other sessions, and their events, on %s', (dialect) => {
  let t: TestApp;
  let send: Send;

  beforeAll(async () => {
    t = await startTestApp(dialect);
    send = injectSender(t.app);
  });
  afterAll(() => t?.close());

  it("starts another session's single run beside a queued 1,000-run experiment, not after its 60 s runs", async () => {
    // The other session first, a copy of main (its datasets; main has no scenario yet).
    expect((await send('POST', '/sessions/main/copy', { new_display_name: 'other' })).status).toBe(201);
    const created = (await send('POST', '/sessions/main/experiments', {
      name: 'long sweep',
      algo_name: 'Sleep',
      dataset_key: 'example',
      axes: { 'algo_params.duration_ms': { from: 60_000, to: 61_000, steps: 1_000 } },
      run: true,
    })) as Reply<{ id: string; size: number }>;
    expect(created.status).toBe(201);
    expect(created.body.size).toBe(1_000);
    const other = new ScenarioClient(send, 'other');
    const single = await other.created({ tag: 'single', algo_name: 'Sleep', algo_params: { duration_ms: 60_000 } });
    expect((await other.run(single.id)).status).toBe(202);
    const started = await until('the other session\'s run to start beside the experiment', async () => {
      const status = (await other.status(single.id)).body.status;
      return status === 'PROCESSING' || status === 'COMPLETE' ? status : undefined;
      // Fair claims start it while the experiment's first runs sleep; a queue taken in order would hold
      // it until they end (60 s each), past this deadline, which is wide so that a busy machine is no failure.
    }, { within: 30_000, every: 0 });
    expect(started).toBe('PROCESSING');
    await other.delete(single.id);
    expect((await send('DELETE', `/sessions/main/experiments/${created.body.id}`)).body).toMatchObject({ changed: 1_000 });
  }, 120_000);

  it('logs experiment.progress as counts change and experiment.completed once when the last run ends', async () => {
    const created = (await send('POST', '/sessions/main/experiments', {
      name: 'evented',
      algo_name: 'Instant',
      dataset_key: 'example',
      axes: { dataset_key: ['example'] },
      repeats: 5,
      run: true,
    })) as Reply<{ id: string }>;
    expect(created.status).toBe(201);
    const db = t.runtime.services.store.db;
    const events = () => db.selectFrom('event_log').select(['type', 'data']).where('type', 'like', 'experiment.%').orderBy('id').execute();
    const logged = await until('experiment.completed in the log', async () => {
      const rows = await events();
      return rows.some((r) => r.type === 'experiment.completed') ? rows : undefined;
    });
    const mine = logged.map((r) => ({ type: r.type, data: JSON.parse(r.data) as { experiment_id: string; counts: Record<string, number> } }));
    const completed = mine.filter((e) => e.type === 'experiment.completed' && e.data.experiment_id === created.body.id);
    expect(completed).toHaveLength(1);
    expect(completed[0]!.data.counts).toMatchObject({ COMPLETE: 5, QUEUED: 0, PROCESSING: 0 });
    expect(mine.some((e) => e.type === 'experiment.progress' && e.data.experiment_id === created.body.id)).toBe(true);
    const detail = (await send('GET', `/sessions/main/experiments/${created.body.id}`)) as Reply<{ completed_at: string | null }>;
    expect(detail.body.completed_at).not.toBeNull();
  });

  it('logs experiment.completed again, with a later completed_at, after one scenario of a finished experiment is reset and rerun at once', async () => {
    const created = (await send('POST', '/sessions/main/experiments', {
      name: 'rerun',
      axes: { dataset_key: ['example'] },
      algo_name: 'Instant',
      dataset_key: 'example',
      repeats: 2,
      run: true,
    })) as Reply<{ id: string }>;
    expect(created.status).toBe(201);
    const experimentId = created.body.id;
    const db = t.runtime.services.store.db;
    const completions = async () =>
      (await db.selectFrom('event_log').select('data').where('type', '=', 'experiment.completed').orderBy('id').execute()).filter(
        (r) => (JSON.parse(r.data) as { experiment_id: string }).experiment_id === experimentId,
      ).length;
    const detail = async () => (await send('GET', `/sessions/main/experiments/${experimentId}`)) as Reply<{ completed_at: string | null }>;
    await until('the first experiment.completed', async () => (await completions()) === 1);
    const first = (await detail()).body.completed_at!;

    const scenarios = new ScenarioClient(send, 'main');
    const [one] = ((await send('GET', `/sessions/main/scenarios?experiment=${experimentId}`)) as Reply<{ items: { id: string }[] }>).body.items;
    expect((await scenarios.reset(one!.id)).status).toBe(200);
    expect((await scenarios.run(one!.id)).status).toBe(202);
    await until('the second experiment.completed', async () => (await completions()) === 2);
    expect((await detail()).body.completed_at! > first).toBe(true);
  });

  it('offers the experiment events to webhooks', async () => {
    const reply = await send('POST', '/sessions/main/webhooks', { url: 'https://hooks.example.com/scenarist', events: ['experiment.progress', 'experiment.completed'] });
    expect(reply.status).toBe(201);
  });
});
