import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScheduleView, TickView } from '../../src/schedules/schedule-row.js';
import { injectSender, ScenarioClient, type Reply, type Send } from '../fixtures/scenario-client.js';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../support/dialects.js';
import { freePort } from '../support/server-process.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { until } from '../support/until.js';
import { startReceiver, type Receiver } from '../webhooks/support/receiver.js';

/** Once a year: a schedule that only ticks when asked (`POST .../run`) or caught up. */
const YEARLY = '0 0 1 1 *';

/**
 * The paths of a tick the route tests leave out: a `replan` tick (the plan's successor, made once,
 * also by a node taking over a tick whose node re-planned and died), `catch_up: all` (its bound) and
 * `none` after every node was down, and `schedule.alert` reaching a real webhook receiver.
 */
// The catch-up test waits out 10 s with every node down: the dialects run side by side, each one's tests in order.
describe.concurrent.each(DIALECTS)('schedule actions on %s', (dialect) => {
  let database: TestDatabase;
  let t: TestApp;
  let send: Send;
  let receiver: Receiver;
  let receiverUrl: string;
  let n = 0;

  // The receiver listens on loopback, which webhooks reach only where an operator allowed it.
  const start = async () => {
    t = await startTestApp(dialect, { webhook_allow_networks: ['127.0.0.0/8'] }, database);
    send = injectSender(t.app);
  };
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    await start();
    const port = await freePort();
    receiver = await startReceiver(port);
    receiverUrl = `http://127.0.0.1:${port}/hook`;
  });
  afterAll(async () => {
    await receiver?.close();
    await t?.stop();
    await database?.drop();
  });

  async function session(): Promise<ScenarioClient> {
    const name = `actions ${++n}`;
    expect((await send('POST', '/sessions/main/copy', { new_display_name: name })).status).toBe(201);
    return new ScenarioClient(send, name);
  }
  const create = async (s: ScenarioClient, body: unknown) => {
    const reply = (await send('POST', `/sessions/${s.sid}/schedules`, body)) as Reply<ScheduleView>;
    expect(reply.status, JSON.stringify(reply.body)).toBe(201);
    return reply.body;
  };
  const ticks = async (s: ScenarioClient, id: string) => ((await send('GET', `/sessions/${s.sid}/schedules/${id}/ticks`)) as Reply<{ ticks: TickView[] }>).body.ticks.slice().reverse();
  async function runTick(s: ScenarioClient, id: string): Promise<TickView> {
    const started = (await send('POST', `/sessions/${s.sid}/schedules/${id}/run`)) as Reply<TickView>;
    expect(started.status).toBe(202);
    return until(`tick ${started.body.id} to end`, async () => (await ticks(s, id)).find((x) => x.id === started.body.id && x.status !== 'running'));
  }
  const sessionIdOf = async (s: ScenarioClient) => (await t.runtime.services.sessions.resolve(s.sid)).id;
  const successorsOf = async (s: ScenarioClient, planScenario: string) =>
    (await t.runtime.services.store.db.selectFrom('scenarios').select('id').where('session_id', '=', await sessionIdOf(s)).where('replans', '=', planScenario).execute()).map((r) => r.id).sort();
  async function published(s: ScenarioClient, algo: string): Promise<string> {
    const planned = await s.started({ tag: 'plan', algo_name: algo });
    expect((await s.waitFor(planned.id)).status).toBe('COMPLETE');
    expect((await send('POST', `/sessions/${s.sid}/scenarios/${planned.id}/publish`, { note: 'this week' })).status).toBe(201);
    return planned.id;
  }

  it.sequential("a replan tick makes the plan's successor once, also when it is taken over from a node that re-planned and died", async () => {
    const s = await session();
    const plan = await published(s, 'Instant');
    const schedule = await create(s, { name: 'replan', cron: YEARLY, action: 'replan' });
    expect(schedule.action).toEqual({ kind: 'replan' });

    const tick = await runTick(s, schedule.id);
    expect(tick).toMatchObject({ status: 'done', error: null });
    expect(tick.scenario_ids).toHaveLength(1);
    expect(await successorsOf(s, plan)).toEqual(tick.scenario_ids);
    const successor = (await send('GET', `/sessions/${s.sid}/scenarios/${tick.scenario_ids[0]}`)) as Reply<{ replans: string; status: string }>;
    expect(successor.body).toMatchObject({ replans: plan, status: 'COMPLETE' });

    // A node marked the successors it found, re-planned, and died before recording what it made.
    const mark = { existing: await successorsOf(s, plan) };
    const made = (await send('POST', `/sessions/${s.sid}/plan/replan`, {})) as Reply<{ id: string }>;
    expect(made.status).toBe(201);
    await t.runtime.services.store.db
      .insertInto('schedule_ticks')
      .values({
        id: `orphan-${dialect}`,
        schedule_id: schedule.id,
        session_id: await sessionIdOf(s),
        due_at: '2020-01-01T00:00:00.000Z',
        manual: 0,
        status: 'running',
        stage: 'refreshed',
        lease_owner: 'a-dead-node',
        lease_until: '2020-01-01T00:00:06.000Z',
        started_at: '2020-01-01T00:00:00.000Z',
        action_mark: JSON.stringify(mark),
      })
      .execute();
    const taken = await until('the orphaned tick to end', async () => (await ticks(s, schedule.id)).find((x) => x.id === `orphan-${dialect}` && x.status !== 'running'));
    expect(taken).toMatchObject({ status: 'done', scenario_ids: [made.body.id] });
    // Two ticks, two successors: the taken-over tick did not re-plan again.
    expect(await successorsOf(s, plan)).toEqual([tick.scenario_ids[0]!, made.body.id].sort());
  });

  it.sequential('delivers schedule.alert to a webhook of every event and not to one of a list without it; a quiet tick sends none', async () => {
    const s = await session();
    await published(s, 'Greedy Slotting');
    const other = await s.started({ tag: 'instant', algo_name: 'Instant' });
    await s.waitFor(other.id);
    const kpi = ((await send('GET', `/sessions/${s.sid}/kpis`)) as Reply<{ kpis: string[] }>).body.kpis[0]!;
    const all = (await send('POST', `/sessions/${s.sid}/webhooks`, { url: receiverUrl })) as Reply<{ id: string; events: string[] }>;
    expect(all.status).toBe(201);
    expect(all.body.events).toContain('schedule.alert');
    const listed = (await send('POST', `/sessions/${s.sid}/webhooks`, { url: `${receiverUrl}?listed`, events: ['scenario.completed'] })) as Reply<{ id: string }>;
    expect(listed.status).toBe(201);

    const quiet = await create(s, { name: 'quiet', cron: YEARLY, action: { kind: 'rerun', scenario: other.id }, notify: { kpis: { [kpi]: { absolute: 1e12 } } } });
    const loud = await create(s, { name: 'loud', cron: YEARLY, action: { kind: 'rerun', scenario: other.id }, notify: { kpis: { [kpi]: { absolute: 0 } } } });
    const quietTick = await runTick(s, quiet.id);
    expect(quietTick.outcome?.alerts).toEqual([]);
    const loudTick = await runTick(s, loud.id);
    expect(loudTick.outcome?.alerts.length).toBeGreaterThan(0);

    await receiver.waitFor((requests) => requests.some((r) => r.headers['x-scenarist-event'] === 'schedule.alert' && r.body.includes(loudTick.id)), 30_000, 'the schedule.alert delivery');
    const alerts = receiver.requests.filter((r) => r.headers['x-scenarist-event'] === 'schedule.alert' && (r.body.includes(loud.id) || r.body.includes(quiet.id)));
    // One request, for the loud tick, to the webhook of every event.
    expect(alerts).toHaveLength(1);
    const body = JSON.parse(alerts[0]!.body) as Record<string, unknown>;
    expect(body).toMatchObject({ type: 'schedule.alert', schedule_id: loud.id, schedule: 'loud', tick_id: loudTick.id, due_at: loudTick.due_at });
    expect((body.alerts as { kind: string }[]).map((a) => a.kind)).toContain('kpi');
    // The listed webhook got its scenario.completed deliveries (the reruns), and no alert.
    const deliveries = async (id: string) => ((await send('GET', `/sessions/${s.sid}/webhooks/${id}/deliveries`)) as Reply<{ deliveries: { event_type: string }[] }>).body.deliveries;
    await until('the listed webhook to get the reruns', async () => (await deliveries(listed.body.id)).filter((d) => d.event_type === 'scenario.completed').length >= 2);
    expect((await deliveries(listed.body.id)).map((d) => d.event_type)).not.toContain('schedule.alert');
    expect((await deliveries(all.body.id)).filter((d) => d.event_type === 'schedule.alert')).toHaveLength(1);
  });

  it.sequential("after every node was down, catch_up 'all' runs the latest missed ticks up to its bound, one after another, and 'none' runs none", async () => {
    const [a, b] = [await session(), await session()];
    const rerun = async (s: ScenarioClient) => {
      const scenario = await s.started({ tag: 'per second', algo_name: 'Instant' });
      await s.waitFor(scenario.id);
      return scenario.id;
    };
    const all = await create(a, { name: 'all', cron: '* * * * * *', action: { kind: 'rerun', scenario: await rerun(a) }, catch_up: 'all', catch_up_max: 3 });
    expect(all).toMatchObject({ catch_up: 'all', catch_up_max: 3 });
    const none = await create(b, { name: 'none', cron: '* * * * * *', action: { kind: 'rerun', scenario: await rerun(b) }, catch_up: 'none' });
    await until('a tick of each', async () => (await ticks(a, all.id)).some((x) => x.status === 'done') && (await ticks(b, none.id)).some((x) => x.status === 'done'), { every: 200 });

    await t.stop();
    const lastBefore = async (id: string) =>
      Date.parse((await (database.url.startsWith('sqlite') ? sqliteLastDue(database, id) : postgresLastDue(database, id)))!);
    const [lastA, lastB] = [await lastBefore(all.id), await lastBefore(none.id)];
    const down = Date.now();
    // Every node down for more than the 5 s after which no look counts as downtime (one clock on this host).
    await until('8 s of downtime', () => Date.now() > down + 8_000, { every: 250, within: 60_000 });
    const restartedAt = Date.now();
    await start();

    const afterA = await until('the 3 caught-up ticks and a regular one to end', async () => {
      const later = (await ticks(a, all.id)).filter((x) => Date.parse(x.due_at) > lastA);
      return later.length >= 4 && later.slice(0, 4).every((x) => x.status !== 'running') && later;
    }, { every: 200 });
    const [first, second, third] = afterA;
    // The latest 3 missed, one after another (each waited for the one before: none skipped), one second apart.
    expect([first, second, third].map((x) => x!.status)).toEqual(['done', 'done', 'done']);
    expect(afterA.map((x) => Date.parse(x.due_at) - Date.parse(first!.due_at))).toEqual(afterA.map((_, i) => i * 1000));
    // The first stands for the ones not run: with the 3, every second since the last tick before the downtime.
    expect(first!.missed + 3).toBe((Date.parse(third!.due_at) - lastA) / 1000);
    expect(first!.missed).toBeGreaterThanOrEqual(5);
    expect([second!.missed, third!.missed]).toEqual([0, 0]);

    const afterB = await until('a regular tick after the restart', async () => {
      const later = (await ticks(b, none.id)).filter((x) => Date.parse(x.due_at) > lastB);
      return later.length >= 1 && later;
    }, { every: 200 });
    // Nothing of the downtime ran: the first tick after it fell due once a node was up again.
    expect(Date.parse(afterB[0]!.due_at)).toBeGreaterThan(restartedAt);
    expect(afterB[0]!.missed).toBe(0);

    for (const [s, id] of [[a, all.id], [b, none.id]] as const) await send('PATCH', `/sessions/${s.sid}/schedules/${id}`, { active: false });
  }, 90_000);
});

/** The schedule's latest due time, read with no app running. */
async function sqliteLastDue(database: TestDatabase, scheduleId: string): Promise<string | undefined> {
  const { default: Database } = await import('better-sqlite3');
  const db = new Database(database.url.slice('sqlite:'.length), { readonly: true });
  try {
    return (db.prepare('select max(due_at) as due from schedule_ticks where schedule_id = ?').get(scheduleId) as { due: string | null }).due ?? undefined;
  } finally {
    db.close();
  }
}

async function postgresLastDue(database: TestDatabase, scheduleId: string): Promise<string | undefined> {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    return (await client.query<{ due: string | null }>('select max(due_at) as due from schedule_ticks where schedule_id = $1', [scheduleId])).rows[0]!.due ?? undefined;
  } finally {
    await client.end();
  }
}
