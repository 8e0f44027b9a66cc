import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ScheduleView, TickView } from '../../src/schedules/schedule-row.js';
import { injectSender, ScenarioClient, type Reply, type Send } from '../fixtures/scenario-client.js';
import { DIALECTS } from '../support/dialects.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { until } from '../support/until.js';

const SKUS = readFileSync(fileURLToPath(new URL('../../examples/warehouse/sample/sku_data.csv', import.meta.url)), 'utf8');
/** Once a year: a schedule that only ticks when asked (`POST .../run`). */
const YEARLY = '0 0 1 1 *';

interface ErrorReply {
  code: string;
  detail: string;
  errors?: { path: string; message: string }[];
}

describe.each(DIALECTS)('schedules on %s', (dialect) => {
  let t: TestApp;
  let send: Send;
  let n = 0;

  beforeAll(async () => {
    t = await startTestApp(dialect);
    send = injectSender(t.app);
  });
  afterAll(() => t?.close());

  async function session(): Promise<ScenarioClient> {
    const name = `sched ${++n}`;
    expect((await send('POST', '/sessions/main/copy', { new_display_name: name })).status).toBe(201);
    return new ScenarioClient(send, name);
  }
  const create = (s: ScenarioClient, body: unknown) => send('POST', `/sessions/${s.sid}/schedules`, body) as Promise<Reply<ScheduleView & ErrorReply>>;
  const list = async (s: ScenarioClient) => ((await send('GET', `/sessions/${s.sid}/schedules`)) as Reply<{ schedules: ScheduleView[] }>).body.schedules;
  const ticks = async (s: ScenarioClient, id: string) => ((await send('GET', `/sessions/${s.sid}/schedules/${id}/ticks`)) as Reply<{ ticks: TickView[] }>).body.ticks;
  /** Runs a tick now and waits until it ended. */
  async function runTick(s: ScenarioClient, id: string): Promise<TickView> {
    const started = (await send('POST', `/sessions/${s.sid}/schedules/${id}/run`)) as Reply<TickView>;
    expect(started.status).toBe(202);
    return until(`tick ${started.body.id} to end`, async () => (await ticks(s, id)).find((x) => x.id === started.body.id && x.status !== 'running'));
  }
  const versionOf = async (s: ScenarioClient) => {
    const row = await t.runtime.services.store.db.selectFrom('datasets').select(['version']).where('key', '=', 'example').where('session_id', '=', (await t.runtime.services.sessions.resolve(s.sid)).id).executeTakeFirstOrThrow();
    return row.version;
  };

  it('refuses bad input with a registry code and a detail saying what to write, storing nothing', async () => {
    const s = await session();
    const base = { name: 'nightly', cron: '0 5 * * 1-5', action: { kind: 'rerun', scenario: 'none-such' } };
    const cases: [unknown, number, string, RegExp][] = [
      [{ ...base, cron: '61 * * * *' }, 422, 'SCHEDULE_INVALID', /minute.*write 5 fields/],
      [{ ...base, cron: 'every day' }, 422, 'SCHEDULE_INVALID', /cron/],
      [{ ...base, timezone: 'Europe/Atlantis' }, 422, 'SCHEDULE_INVALID', /timezone.*Europe\/Amsterdam/],
      [base, 422, 'SCHEDULE_INVALID', /action\.scenario.*none-such/],
      [{ ...base, action: { kind: 'experiment', experiment: 'nope' } }, 422, 'SCHEDULE_INVALID', /action\.experiment/],
      [{ ...base, action: 'replan' }, 409, 'SCHEDULE_PLAN_MISSING', /publish a scenario first/],
      [{ ...base, action: { kind: 'rerun' } }, 422, 'INVALID_REQUEST', /action/],
      [{ ...base, refresh: '../etc' }, 422, 'SCHEDULE_INVALID', /refresh\.dataset/],
    ];
    for (const [body, status, code, detail] of cases) {
      const res = await create(s, body);
      expect([res.status, res.body.code], JSON.stringify(body)).toEqual([status, code]);
      expect(res.body.detail).toMatch(detail);
    }
    expect(await list(s)).toEqual([]);
    const preview = (await send('POST', `/sessions/${s.sid}/schedules/preview`, { cron: '0 5 * * 1-5', timezone: 'Europe/Amsterdam' })) as Reply<{ next_ticks: string[] }>;
    expect(preview.body.next_ticks).toHaveLength(5);
    expect(((await send('POST', `/sessions/${s.sid}/schedules/preview`, { cron: '0 5 * *' })) as Reply<ErrorReply>).body.code).toBe('SCHEDULE_INVALID');
  });

  it('creates, lists, pauses, changes and deletes a schedule; a rerun tick resets and runs its scenario', async () => {
    const s = await session();
    const scenario = await s.started({ tag: 'nightly run', algo_name: 'Instant' });
    await s.waitFor(scenario.id);
    const created = await create(s, { name: 'nightly', cron: '0 5 * * 1-5', timezone: 'Europe/Amsterdam', action: { kind: 'rerun', scenario: 'nightly run' } });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ name: 'nightly', active: true, catch_up: 'latest', refresh: null, action: { kind: 'rerun', scenario: scenario.id } });
    expect(created.body.next_ticks).toHaveLength(5);
    expect((await create(s, { name: 'nightly', cron: YEARLY, action: { kind: 'rerun', scenario: scenario.id } })).body.code).toBe('SCHEDULE_NAME_TAKEN');
    const id = created.body.id;

    const tick = await runTick(s, id);
    expect(tick).toMatchObject({ status: 'done', manual: true, scenario_ids: [scenario.id], error: null });
    const rerun = (await send('GET', `/sessions/${s.sid}/scenarios/${scenario.id}`)) as Reply<{ status: string; queued_at?: string; finished_at: string }>;
    expect(rerun.body.status).toBe('COMPLETE');

    const paused = (await send('PATCH', `/sessions/${s.sid}/schedules/${id}`, { active: false })) as Reply<ScheduleView>;
    expect(paused.body).toMatchObject({ active: false, next_ticks: [] });
    const bad = (await send('PATCH', `/sessions/${s.sid}/schedules/${id}`, { cron: '* * *' })) as Reply<ErrorReply>;
    expect(bad.body.code).toBe('SCHEDULE_INVALID');
    expect((await list(s)).map((x) => [x.name, x.cron, x.active, x.last_tick?.id])).toEqual([['nightly', '0 5 * * 1-5', false, tick.id]]);
    expect((await send('DELETE', `/sessions/${s.sid}/schedules/${id}`)).status).toBe(204);
    expect(((await send('GET', `/sessions/${s.sid}/schedules/${id}`)) as Reply<ErrorReply>).body.code).toBe('SCHEDULE_NOT_FOUND');
  });

  it('a dropped CSV becomes a new version of the dataset; a bad one fails its tick with the ETL errors and changes nothing', async () => {
    const s = await session();
    const scenario = await s.started({ tag: 'on fresh data', algo_name: 'Instant' });
    await s.waitFor(scenario.id);
    const created = await create(s, { name: 'orders', cron: YEARLY, refresh: { dataset: 'example' }, action: { kind: 'rerun', scenario: scenario.id } });
    expect(created.status).toBe(201);
    const folder = created.body.refresh!.drop_folder;
    expect(isAbsolute(folder)).toBe(true);
    expect(folder.endsWith(join(s.sid, 'example'))).toBe(true);
    mkdirSync(folder, { recursive: true });

    // Written elsewhere (a `.part` name is never taken), then renamed in.
    const before = await versionOf(s);
    const changed = SKUS.replace('253.94', '999.5');
    writeFileSync(join(folder, 'sku_data.csv.part'), changed);
    renameSync(join(folder, 'sku_data.csv.part'), join(folder, 'sku_data.csv'));
    const good = await runTick(s, created.body.id);
    expect(good).toMatchObject({ status: 'done', refresh: { dataset: 'example', files: ['sku_data.csv'], success: true } });
    expect(await versionOf(s)).not.toBe(before);
    const data = (await send('GET', `/sessions/${s.sid}/data/example`)) as Reply;
    expect(JSON.stringify(data.body)).toContain('999.5');
    expect(readdirSync(join(folder, 'done')).sort()).toEqual([`${good.id}-sku_data.csv`, `${good.id}-sku_data.csv.answer.json`]);
    expect(existsSync(join(folder, 'sku_data.csv'))).toBe(false);

    const after = await versionOf(s);
    writeFileSync(join(folder, 'sku_data.csv'), 'sku;category;daily_picks\nSKU-1;pet;not a number\n');
    const bad = await runTick(s, created.body.id);
    expect(bad.status).toBe('failed');
    expect(bad.error).toMatch(/ETL refused.*sku_data\.csv/);
    expect(bad.refresh?.success).toBe(false);
    expect(bad.scenario_ids).toEqual([]);
    expect(await versionOf(s)).toBe(after);
    const answer = JSON.parse(readFileSync(join(folder, 'failed', `${bad.id}-sku_data.csv.answer.json`), 'utf8')) as { success: boolean; messages: unknown[] };
    expect(answer.success).toBe(false);
    expect(answer.messages.length).toBeGreaterThan(0);

    const ready = (await send('GET', '/health/ready')) as Reply<{ checks?: { name: string; ok: boolean }[] }>;
    expect(ready.body.checks).toContainEqual(expect.objectContaining({ name: 'schedule orders refresh', ok: true }));
  });

  it('emits schedule.alert when a KPI moved past its threshold against the plan, and not otherwise', async () => {
    const s = await session();
    const planned = await s.started({ tag: 'plan', algo_name: 'Greedy Slotting' });
    expect((await s.waitFor(planned.id)).status).toBe('COMPLETE');
    expect((await send('POST', `/sessions/${s.sid}/scenarios/${planned.id}/publish`, { note: 'week 1' })).status).toBe(201);
    const other = await s.started({ tag: 'instant', algo_name: 'Instant' });
    await s.waitFor(other.id);
    const kpis = ((await send('GET', `/sessions/${s.sid}/kpis`)) as Reply<{ kpis: string[] }>).body.kpis;
    const kpi = kpis[0]!;
    const loud = await create(s, { name: 'loud', cron: YEARLY, action: { kind: 'rerun', scenario: other.id }, notify: { kpis: { [kpi]: { absolute: 0 } } } });
    const quiet = await create(s, { name: 'quiet', cron: YEARLY, action: { kind: 'rerun', scenario: other.id }, notify: { kpis: { [kpi]: { absolute: 1e12 } } } });
    const loudTick = await runTick(s, loud.body.id);
    const quietTick = await runTick(s, quiet.body.id);
    expect(loudTick.outcome?.alerts.map((a) => a.kind)).toContain('kpi');
    expect(quietTick.outcome?.alerts).toEqual([]);
    expect(quietTick.outcome?.scenarios[0]?.kpis.find((k) => k.name === kpi)?.delta).not.toBeNull();
    const sessionId = (await t.runtime.services.sessions.resolve(s.sid)).id;
    const events = await t.runtime.services.store.db.selectFrom('event_log').select(['type', 'data']).where('session_id', '=', sessionId).where('type', '=', 'schedule.alert').execute();
    expect(events).toHaveLength(1);
    expect(events[0]!.data).toContain(loudTick.id);
  });
});
