import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ScheduleTicksRepository } from '../../src/store/schedule-ticks-repository.js';
import type { ScheduleView, TickView } from '../../src/schedules/schedule-row.js';
import { injectSender, ScenarioClient, type Reply, type Send } from '../fixtures/scenario-client.js';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../support/dialects.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { until } from '../support/until.js';

/**
 * The ticker on a real store: every due tick recorded once (on PostgreSQL with two app instances
 * sharing the database), its effect once, pause, take-over of a dead node's tick, catch-up.
 *
 * Most of the time is waiting on the clock (8 per-second ticks, 10 s of downtime), so the dialects
 * run side by side; within one, the tests run in order (the last stops and restarts the nodes).
 */
describe.concurrent.each(DIALECTS)('the scheduler on %s', (dialect) => {
  let database: TestDatabase;
  let nodes: TestApp[] = [];
  let send: Send;

  const start = async () => {
    // PostgreSQL: two API nodes on one database; SQLite: its one process.
    const count = dialect === 'postgres' ? 2 : 1;
    nodes = [];
    for (let i = 0; i < count; i++) nodes.push(await startTestApp(dialect, {}, database));
    send = injectSender(nodes[0]!.app);
  };
  const stopAll = async () => {
    for (const node of nodes) await node.stop();
  };

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    await start();
  });
  afterAll(async () => {
    await stopAll();
    await database?.drop();
  });

  const db = () => nodes[0]!.runtime.services.store.db;
  const ticks = async (sid: string, id: string) => ((await send('GET', `/sessions/${sid}/schedules/${id}/ticks`)) as Reply<{ ticks: TickView[] }>).body.ticks.slice().reverse();
  const dbNow = async () => Date.parse(await new ScheduleTicksRepository(db()).now());
  const queuedRuns = async (scenarioId: string) =>
    (await db().selectFrom('event_log').select('id').where('type', '=', 'scenario.queued').where('data', 'like', `%${scenarioId}%`).execute()).length;

  it.sequential('records every due tick of a per-second schedule once, runs each claimed tick once, and stops when paused', async () => {
    const s = new ScenarioClient(send, 'main');
    const scenario = await s.started({ tag: 'every second', algo_name: 'Instant' });
    await s.waitFor(scenario.id);
    const runsBefore = await queuedRuns(scenario.id);
    const created = (await send('POST', '/sessions/main/schedules', { name: 'per second', cron: '* * * * * *', action: { kind: 'rerun', scenario: scenario.id } })) as Reply<ScheduleView>;
    expect(created.status).toBe(201);
    const id = created.body.id;
    await until('8 ended ticks', async () => (await ticks('main', id)).filter((x) => x.status !== 'running').length >= 8 || undefined, { every: 200 });
    const paused = (await send('PATCH', `/sessions/main/schedules/${id}`, { active: false })) as Reply<ScheduleView>;
    expect(paused.body.active).toBe(false);
    await until('the running tick to end', async () => (await ticks('main', id)).every((x) => x.status !== 'running') || undefined, { every: 200 });
    const recorded = await ticks('main', id);
    // Due times one second apart: none missed, none twice.
    const due = recorded.map((x) => Date.parse(x.due_at));
    for (let i = 1; i < due.length; i++) expect(due[i]! - due[i - 1]!).toBe(1000);
    expect(recorded.every((x) => x.status === 'done' || x.status === 'skipped')).toBe(true);
    expect(recorded.filter((x) => x.status === 'skipped').every((x) => /still running/.test(x.reason ?? ''))).toBe(true);
    // The effect of each tick that ran happened once: one queued run per done tick.
    expect((await queuedRuns(scenario.id)) - runsBefore).toBe(recorded.filter((x) => x.status === 'done').length);

    // Paused: while the nodes keep looking (their heartbeat moves on), no tick is added.
    const since = await dbNow();
    await until('the nodes to look for 3 more seconds', async () => {
      const row = await db().selectFrom('scheduler_heartbeat').select('seen_at').executeTakeFirst();
      return row !== undefined && Date.parse(row.seen_at) > since + 3000;
    }, { every: 200 });
    expect((await ticks('main', id)).length).toBe(recorded.length);
  });

  it.sequential("takes over a tick whose node died, and finishes it without repeating what it did", async () => {
    const s = new ScenarioClient(send, 'main');
    const scenario = await s.started({ tag: 'taken over', algo_name: 'Instant' });
    await s.waitFor(scenario.id);
    const created = (await send('POST', '/sessions/main/schedules', { name: 'orphan', cron: '0 0 1 1 *', action: { kind: 'rerun', scenario: scenario.id } })) as Reply<ScheduleView>;
    const sessionId = (await nodes[0]!.runtime.services.sessions.resolve('main')).id;
    // A node acted (reset and run the scenario) and died before recording it: its mark says what it found.
    const before = await db().selectFrom('scenarios').select('queued_at').where('id', '=', scenario.id).executeTakeFirstOrThrow();
    await send('POST', `/sessions/main/scenarios/${scenario.id}/reset`);
    await send('POST', `/sessions/main/scenarios/${scenario.id}/run`);
    const runs = await queuedRuns(scenario.id);
    await db()
      .insertInto('schedule_ticks')
      .values({
        id: 'orphaned-tick',
        schedule_id: created.body.id,
        session_id: sessionId,
        due_at: '2020-01-01T00:00:00.000Z',
        manual: 0,
        status: 'running',
        stage: 'refreshed',
        lease_owner: 'a-dead-node',
        lease_until: '2020-01-01T00:00:06.000Z',
        started_at: '2020-01-01T00:00:00.000Z',
        action_mark: JSON.stringify({ queued: { [scenario.id]: before.queued_at } }),
      })
      .execute();
    const done = await until('the orphaned tick to end', async () => (await ticks('main', created.body.id)).find((x) => x.id === 'orphaned-tick' && x.status !== 'running'), { every: 200 });
    expect(done).toMatchObject({ status: 'done', scenario_ids: [scenario.id] });
    expect(await queuedRuns(scenario.id)).toBe(runs);
  });

  it.sequential('after every node was down, catch_up latest runs one tick for what was missed', async () => {
    const s = new ScenarioClient(send, 'main');
    const scenario = await s.started({ tag: 'catching up', algo_name: 'Instant' });
    await s.waitFor(scenario.id);
    const created = (await send('POST', '/sessions/main/schedules', { name: 'catch up', cron: '*/2 * * * * *', action: { kind: 'rerun', scenario: scenario.id } })) as Reply<ScheduleView>;
    const id = created.body.id;
    await until('a tick', async () => (await ticks('main', id)).some((x) => x.status === 'done') || undefined, { every: 200 });
    await stopAll();
    const down = await sqlNow(database, dialect);
    // Every node down for more than the 5 s after which no heartbeat counts as downtime.
    await until('10 s of downtime', async () => (await sqlNow(database, dialect)) > down + 10_000, { every: 500, within: 60_000 });
    await start();
    await until('two ticks after the restart', async () => (await ticks('main', id)).filter((x) => Date.parse(x.due_at) > down && x.status !== 'running').length >= 2 || undefined, { every: 200 });
    const after = (await ticks('main', id)).filter((x) => Date.parse(x.due_at) > down);
    const caughtUp = after[0]!;
    expect(caughtUp.missed).toBeGreaterThanOrEqual(3);
    // The missed ticks are not run one by one: the next recorded tick is a regular one, 2 s later.
    expect(Date.parse(after[1]!.due_at) - Date.parse(caughtUp.due_at)).toBe(2000);
    expect(after[1]!.missed).toBe(0);
  });
});

/** The database's clock with no app running (SQLite: the host's; one clock on this machine). */
async function sqlNow(database: TestDatabase, dialect: string): Promise<number> {
  if (dialect !== 'postgres') return Date.now();
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  try {
    const { rows } = await client.query<{ now: Date }>('select now() as now');
    return rows[0]!.now.getTime();
  } finally {
    await client.end();
  }
}
