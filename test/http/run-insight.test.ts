import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seededRandom } from '../../src/executor/run/seeded-random.js';
import type { LogsView } from '../../src/scenarios/logs-view.js';
import { TEST_DOMAIN } from '../fixtures/test-domain-path.js';
import { injectSender, ScenarioClient, type Reply, type Send } from '../fixtures/scenario-client.js';
import { DIALECTS } from '../support/dialects.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { until } from '../support/until.js';

const ITEMS = JSON.stringify({ items: { columns: [{ name: 'name', type: 'string' }, { name: 'weight', type: 'float' }], rows: [['a', 1.5]] } });
const LIMIT_MS = 90_000;
const FINAL_REPORT = { objective: null, best_so_far: 9, message: 'still improving', at: expect.any(String) as unknown };

/** What the Insight algorithm of the test domain returns. */
interface InsightResult {
  readonly seed: number;
  readonly randoms: number[];
  readonly die: number;
  readonly deadline: string;
}

/**
 * Run insight through the real app (local executor on SQLite, distributed on PostgreSQL): `ctx.report`
 * on status, scenario and events, `ctx.log` lines and a thrown error on `GET .../logs`, the recorded
 * seed of `ctx.random`, `ctx.deadline`, and reset clearing all of it.
 */
describe.each(DIALECTS)('run insight on %s', (dialect) => {
  let t: TestApp;
  let send: Send;
  let s: ScenarioClient;
  beforeAll(async () => {
    t = await startTestApp(dialect, { domain: TEST_DOMAIN, workers: 1, run_time_limit: String(LIMIT_MS) });
    send = injectSender(t.app);
    const sessionId = randomUUID();
    const now = new Date().toISOString();
    const { store } = t.runtime.services;
    await store.sessions.insert({ id: sessionId, displayName: `insight ${dialect}`, createdAt: now });
    await store.datasets.put({ sessionId, key: 'items', kind: 'master', createdAt: now, version: randomUUID(), tablesJson: ITEMS });
    s = new ScenarioClient(send, sessionId);
  });
  afterAll(() => t?.close());

  const insight = (params: Record<string, unknown> = {}) => ({ tag: randomUUID(), dataset_key: 'items', algo_name: 'Insight', algo_params: params });
  const logs = (id: string, sid = s.sid) => send('GET', `/sessions/${sid}/scenarios/${id}/logs`) as Promise<Reply<LogsView>>;
  const loggedEvents = async (id: string) =>
    (await t.runtime.services.store.db.selectFrom('event_log').select(['type', 'data']).where('session_id', '=', s.sid).orderBy('id').execute())
      .map((row) => ({ type: row.type, ...(JSON.parse(row.data) as { scenario_id?: string; report?: unknown }) }))
      .filter((event) => event.scenario_id === id);

  it('has no report (nor seed before a run) for an algorithm that never reports, and empty logs', async () => {
    const created = await s.created({ tag: randomUUID(), dataset_key: 'items', algo_name: 'Sum' });
    expect(created).not.toHaveProperty('report');
    expect(created).not.toHaveProperty('seed');
    expect((await logs(created.id)).body).toEqual({ lines: [], truncated: false });
    await s.run(created.id);
    const status = await s.waitFor(created.id);
    expect(status).toEqual({ id: created.id, tag: created.tag, status: 'COMPLETE', progress: 1 });
    const done = (await s.get(created.id)).body;
    expect(done).not.toHaveProperty('report');
    expect(Number.isInteger(done.seed)).toBe(true);
    expect((await logs(created.id)).body).toEqual({ lines: [], truncated: false });
    await until('the completed event', async () => (await loggedEvents(created.id)).some((e) => e.type === 'scenario.completed'));
    expect((await loggedEvents(created.id)).find((e) => e.type === 'scenario.completed')).not.toHaveProperty('report');
  });

  it('serves the latest report on status, scenario and progress events while running, and the final one once complete', async () => {
    const running = await s.started(insight({ hold_ms: 600_000 }));
    await until('a report on the status route', async () => (await s.status(running.id)).body.report !== undefined);
    const status = (await s.status(running.id)).body;
    expect(status).toEqual({ id: running.id, tag: running.tag, status: 'PROCESSING', progress: 0, report: FINAL_REPORT });
    expect((await s.get(running.id)).body.report).toEqual(FINAL_REPORT);
    await until('a progress event with the report', async () =>
      (await loggedEvents(running.id)).some((e) => e.type === 'scenario.progress' && e.report !== undefined),
    );
    const progress = (await loggedEvents(running.id)).find((e) => e.type === 'scenario.progress' && e.report !== undefined);
    expect(progress?.report).toEqual(FINAL_REPORT);
    if (dialect === 'postgres') {
      // Another API node (no workers) answers from the store what the running node flushed.
      const apiNode = await startTestApp(dialect, { domain: TEST_DOMAIN, workers: 0 }, t.database);
      try {
        const other = new ScenarioClient(injectSender(apiNode.app), s.sid);
        await until('the report on another API node', async () => (await other.status(running.id)).body.report !== undefined);
        expect((await other.status(running.id)).body).toMatchObject({ status: 'PROCESSING', report: FINAL_REPORT });
        const lines = (await injectSender(apiNode.app)('GET', `/sessions/${s.sid}/scenarios/${running.id}/logs`)).body as LogsView;
        expect(lines.lines.map((l) => l.message)).toEqual(['line 1', 'line 2', 'line 3', 'a warning']);
      } finally {
        await apiNode.stop();
      }
    }
    expect((await send('POST', `/sessions/${s.sid}/scenarios/${running.id}/cancel`)).status).toBe(200);

    const done = await s.started(insight());
    expect((await s.waitFor(done.id)).report).toEqual(FINAL_REPORT);
    expect((await s.get(done.id)).body.report).toEqual(FINAL_REPORT);
    await until('the completed event', async () => (await loggedEvents(done.id)).some((e) => e.type === 'scenario.completed'));
    expect((await loggedEvents(done.id)).find((e) => e.type === 'scenario.completed')?.report).toEqual(FINAL_REPORT);
  });

  it('keeps the last 1,000 log lines of a run, with their levels and fields, and says it truncated', async () => {
    const run = await s.started(insight({ lines: 1_500 }));
    expect((await s.waitFor(run.id)).status).toBe('COMPLETE');
    const reply = await logs(run.id);
    expect(reply.status).toBe(200);
    const { lines, truncated, error } = reply.body;
    expect(truncated).toBe(true);
    expect(error).toBeUndefined();
    expect(lines).toHaveLength(1_000);
    // 1,500 info lines and a warning: the last 1,000 start at line 502.
    expect(lines[0]).toEqual({ at: expect.any(String), level: 'info', message: 'line 502', fields: { i: 502 } });
    expect(lines[998]).toMatchObject({ level: 'info', message: 'line 1500', fields: { i: 1500 } });
    expect(lines[999]).toEqual({ at: expect.any(String), level: 'warn', message: 'a warning' });
    // The bound holds in the store too.
    const stored = await t.runtime.services.store.db
      .selectFrom('scenario_log_lines')
      .innerJoin('scenarios', 'scenarios.seq', 'scenario_log_lines.scenario_seq')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('scenarios.id', '=', run.id)
      .executeTakeFirstOrThrow();
    expect(Number(stored.n)).toBe(1_000);
  });

  it('names the class, message and domain stack frames of the error a FAILED run threw', async () => {
    const run = await s.started(insight({ outcome: 'throw' }));
    expect((await s.waitFor(run.id)).status).toBe('FAILED');
    expect((await s.get(run.id)).body.error).toEqual({ message: 'shelf 7 collapsed', code: 'ALGORITHM_ERROR' });
    const { lines, truncated, error } = (await logs(run.id)).body;
    expect(lines.map((l) => l.message)).toEqual(['line 1', 'line 2', 'line 3', 'a warning']);
    expect(truncated).toBe(false);
    expect(error).toMatchObject({ class: 'ShelfCollapsed', message: 'shelf 7 collapsed' });
    expect(error!.stack.length).toBeGreaterThan(0);
    expect(error!.stack[0]).toContain('collapseShelf');
    for (const frame of error!.stack) expect(frame).toContain('test-domain.ts');

    // A thrown string has no class nor stack: no error entry.
    const thrownString = await s.started({ tag: randomUUID(), dataset_key: 'items', algo_name: 'Fail', algo_params: { mode: 'string' } });
    expect((await s.waitFor(thrownString.id)).status).toBe('FAILED');
    expect((await logs(thrownString.id)).body).toEqual({ lines: [], truncated: false });
  });

  it('records the seed of ctx.random (the same seed gives the same numbers) and sets ctx.deadline to start plus the limit', async () => {
    const run = await s.started(insight());
    expect((await s.waitFor(run.id)).status).toBe('COMPLETE');
    const scenario = (await s.get(run.id)).body;
    const result = scenario.result as InsightResult;
    expect(scenario.seed).toBe(result.seed);
    const again = seededRandom(scenario.seed!);
    expect(Array.from({ length: 5 }, () => again.next())).toEqual(result.randoms);
    expect(again.int(1, 6)).toBe(result.die);
    expect(Date.parse(result.deadline)).toBe(Date.parse(scenario.started_at!) + LIMIT_MS);
  });

  it('clears report, seed and logs on reset', async () => {
    const run = await s.started(insight({ outcome: 'throw' }));
    expect((await s.waitFor(run.id)).status).toBe('FAILED');
    expect((await logs(run.id)).body.lines).toHaveLength(4);
    const reset = await s.reset(run.id);
    expect(reset.status).toBe(200);
    expect(reset.body).not.toHaveProperty('report');
    expect(reset.body).not.toHaveProperty('seed');
    expect((await s.status(run.id)).body).not.toHaveProperty('report');
    expect((await s.get(run.id)).body).not.toHaveProperty('seed');
    expect((await logs(run.id)).body).toEqual({ lines: [], truncated: false });
    const { store } = t.runtime.services;
    const rows = await store.db
      .selectFrom('scenario_log_lines')
      .innerJoin('scenarios', 'scenarios.seq', 'scenario_log_lines.scenario_seq')
      .select('line')
      .where('scenarios.id', '=', run.id)
      .execute();
    expect(rows).toEqual([]);
  });

  it('keeps each finished scenario\'s log lines, report and seed in a copied session', async () => {
    const run = await s.started(insight({ outcome: 'throw' }));
    expect((await s.waitFor(run.id)).status).toBe('FAILED');
    const source = await logs(run.id);
    expect(source.body.lines).toHaveLength(4);
    const name = `insight copy ${randomUUID()}`;
    expect((await send('POST', `/sessions/${s.sid}/copy`, { new_display_name: name })).status).toBe(201);
    const copied = (await send('GET', `/sessions/${encodeURIComponent(name)}/scenarios`)).body as { id: string; tag: string; seed?: number }[];
    const copy = copied.find((c) => c.tag === run.tag)!;
    expect(copy.id).not.toBe(run.id);
    expect(copy.seed).toBe((await s.get(run.id)).body.seed);
    expect((await logs(copy.id, encodeURIComponent(name))).body).toEqual(source.body);
  });

  it('answers 404 for an unknown session or scenario, or a scenario of another session', async () => {
    const run = await s.created(insight());
    const unknownScenario = await logs(randomUUID());
    expect(unknownScenario.status).toBe(404);
    expect(unknownScenario.body).toMatchObject({ detail: expect.stringContaining('not found') });
    expect((await logs(run.id, 'no-such-session')).status).toBe(404);
    const other = (await send('POST', '/sessions', { display_name: `other ${dialect}` })).body as { sessions: { id: string; display_name: string }[] };
    const otherId = other.sessions.find((x) => x.display_name === `other ${dialect}`)!.id;
    expect((await logs(run.id, otherId)).status).toBe(404);
  });
});
