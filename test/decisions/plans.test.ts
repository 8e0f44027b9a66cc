import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PlanView, SessionPlanView } from '../../src/decisions/plan-view.js';
import { planProtectionOf } from '../../src/store/plan-protection.js';
import { injectSender, ScenarioClient, type Reply, type Send } from '../fixtures/scenario-client.js';
import { DIALECTS } from '../support/dialects.js';
import { multipartBody } from '../support/multipart.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

const sample = (name: string) => readFileSync(fileURLToPath(new URL(`../../examples/warehouse/sample/${name}`, import.meta.url)));
/** Done at once: a COMPLETE scenario with KPI values (all 0) costs no time. */
const INSTANT = { algo_name: 'Instant' };
const LONG = { algo_name: 'Sleep', algo_params: { duration_ms: 600_000 } };

interface ErrorReply {
  code: string;
  detail: string;
}

describe.each(DIALECTS)('the published plan on %s', (dialect) => {
  let t: TestApp;
  let send: Send;
  let n = 0;

  beforeAll(async () => {
    t = await startTestApp(dialect);
    send = injectSender(t.app);
  });
  afterAll(() => t?.close());

  /** A fresh session holding the example dataset (copied from main), for one test's plan. */
  async function session(): Promise<ScenarioClient> {
    const name = `plans ${++n}`;
    expect((await send('POST', '/sessions/main/copy', { new_display_name: name })).status).toBe(201);
    return new ScenarioClient(send, name);
  }
  const complete = async (s: ScenarioClient, tag: string) => {
    const started = await s.started({ tag, ...INSTANT });
    expect((await s.waitFor(started.id)).status).toBe('COMPLETE');
    return started.id;
  };
  const publish = (s: ScenarioClient, id: string, note: unknown = 'the cheapest walk') =>
    send('POST', `/sessions/${s.sid}/scenarios/${id}/publish`, { note }) as Promise<Reply<PlanView & ErrorReply>>;
  const plan = async (s: ScenarioClient) => (await send('GET', `/sessions/${s.sid}/plan`)) as Reply<SessionPlanView>;
  const withdraw = (s: ScenarioClient, note: unknown = 'numbers were wrong') => send('DELETE', `/sessions/${s.sid}/plan`, { note }) as Promise<Reply<PlanView & ErrorReply>>;
  const codeOf = (reply: Reply) => [reply.status, (reply.body as ErrorReply | undefined)?.code];

  it('answers an explicit empty plan for a session that never published one', async () => {
    const s = await session();
    expect(await plan(s)).toEqual({ status: 200, body: { current: null, history: [] } });
    expect((await send('GET', '/sessions/nope/plan')).status).toBe(404);
  });

  it('publishes only a COMPLETE scenario, with its KPIs, note, who and when', async () => {
    const s = await session();
    const created = await s.created({ tag: 'not run', ...INSTANT });
    expect(codeOf(await publish(s, created.id))).toEqual([409, 'PLAN_SCENARIO_NOT_COMPLETE']);
    const failed = await s.started({ tag: 'fails', algo_name: 'Fail' });
    expect((await s.waitFor(failed.id)).status).toBe('FAILED');
    expect(codeOf(await publish(s, failed.id))).toEqual([409, 'PLAN_SCENARIO_NOT_COMPLETE']);
    const queued = await s.started({ tag: 'long', ...LONG });
    expect(codeOf(await publish(s, queued.id))).toEqual([409, 'PLAN_SCENARIO_NOT_COMPLETE']);
    // Cancelled (FAILED) so the session's next run need not wait for it.
    expect((await send('POST', `/sessions/${s.sid}/scenarios/${queued.id}/cancel`)).status).toBe(200);
    expect(codeOf(await publish(s, 'no-such-id'))).toEqual([404, 'SCENARIO_NOT_FOUND']);
    expect(codeOf(await publish(s, created.id, ''))).toEqual([422, 'INVALID_REQUEST']);
    expect((await send('POST', `/sessions/${s.sid}/scenarios/${created.id}/publish`, {})).status).toBe(422);
    expect((await plan(s)).body).toEqual({ current: null, history: [] });

    const id = await complete(s, 'greedy');
    const scenario = (await s.get(id)).body;
    const published = await publish(s, id);
    expect(published.status).toBe(201);
    expect(published.body).toMatchObject({
      scenario_id: id,
      tag: 'greedy',
      dataset_key: 'example',
      algorithm: 'Instant',
      kpis: scenario.kpis,
      note: 'the cheapest walk',
      published_by: { id: 'local', name: 'local' },
      ended: null,
    });
    expect(Object.values(published.body.kpis).some((kpi) => typeof kpi.value === 'number')).toBe(true);
    expect(Date.parse(published.body.published_at)).not.toBeNaN();
    expect((await plan(s)).body).toEqual({ current: published.body, history: [] });
    expect(codeOf(await publish(s, id))).toEqual([409, 'PLAN_ALREADY_PUBLISHED']);
  });

  it('supersedes the current plan, then withdraws the new one with a note, keeping both in the history', async () => {
    const s = await session();
    const [a, b] = [await complete(s, 'a'), await complete(s, 'b')];
    const first = (await publish(s, a, 'first choice')).body;
    const second = await publish(s, b, 'better after all');
    expect(second.status).toBe(201);
    let read = (await plan(s)).body;
    expect(read.current).toEqual(second.body);
    expect(read.history).toHaveLength(1);
    expect(read.history[0]).toMatchObject({ id: first.id, scenario_id: a, note: 'first choice', ended: { how: 'superseded', note: null, by: { id: 'local', name: 'local' } } });

    const withdrawn = await withdraw(s, 'the data was stale');
    expect(withdrawn.status).toBe(200);
    expect(withdrawn.body).toMatchObject({ id: second.body.id, ended: { how: 'withdrawn', note: 'the data was stale', by: { id: 'local', name: 'local' } } });
    read = (await plan(s)).body;
    expect(read.current).toBeNull();
    expect(read.history.map((p) => [p.scenario_id, p.ended?.how])).toEqual([
      [b, 'withdrawn'],
      [a, 'superseded'],
    ]);
    expect(codeOf(await withdraw(s))).toEqual([409, 'PLAN_NOT_PUBLISHED']);
    expect(codeOf(await withdraw(s, ''))).toEqual([422, 'INVALID_REQUEST']);
    // The superseded plan's scenario was free again as soon as it was superseded; the history outlives it.
    expect((await s.delete(a)).status).toBe(204);
    expect((await plan(s)).body.history).toHaveLength(2);
  });

  it("refuses every write of the plan's scenario, dataset and session with codes of their own until withdrawn", async () => {
    const s = await session();
    const id = await complete(s, 'plan');
    const other = await complete(s, 'other');
    const waiting = await s.started({ tag: 'waiting', ...LONG });
    expect((await publish(s, id)).status).toBe(201);
    const sid = s.sid;

    expect(codeOf(await s.reset(id))).toEqual([409, 'PLAN_SCENARIO_PROTECTED']);
    expect(codeOf(await s.run(id))).toEqual([409, 'PLAN_SCENARIO_PROTECTED']);
    expect(codeOf(await s.delete(id))).toEqual([409, 'PLAN_SCENARIO_PROTECTED']);
    expect(detailOfReply(await s.delete(id))).toContain(id);
    // Batches: the whole batch is refused and nothing of it changes.
    for (const action of ['run', 'reset', 'delete']) {
      expect(codeOf(await send('POST', `/sessions/${sid}/scenarios:${action}`, { ids: [other, id] }))).toEqual([409, 'PLAN_SCENARIO_PROTECTED']);
    }
    expect(codeOf(await send('POST', `/sessions/${sid}/scenarios:delete`, { filter: { status: 'COMPLETE' } }))).toEqual([409, 'PLAN_SCENARIO_PROTECTED']);
    expect((await s.get(other)).body.status).toBe('COMPLETE');
    // A batch that leaves the plan out goes ahead; a cancel never touches a COMPLETE plan.
    expect((await send('POST', `/sessions/${sid}/scenarios:reset`, { ids: [other] })).status).toBe(200);
    expect((await send('POST', `/sessions/${sid}/scenarios:cancel`, { ids: [id] })).body).toMatchObject({ changed: 0, skipped: 1 });

    expect(codeOf(await send('DELETE', `/sessions/${sid}/data/example`))).toEqual([409, 'PLAN_DATASET_PROTECTED']);
    const form = (await send('GET', `/sessions/${sid}/data/example`)).body;
    // New data under the plan's key is the planning cycle: allowed, the plan keeps its version (docs/api/cycles.md).
    const replaced = await t.app.inject({ method: 'POST', url: `/api/v1/sessions/${sid}/data/from-json`, headers: { 'content-type': 'application/json' }, payload: form as object });
    expect(replaced.statusCode).toBe(201);
    const upload = multipartBody([
      { name: 'dataset_name', value: 'example' },
      { name: 'files', filename: 'sku_data.csv', data: sample('sku_data.csv') },
      { name: 'files', filename: 'warehouse_layout.csv', data: sample('warehouse_layout.csv') },
    ]);
    const etl = await t.app.inject({ method: 'POST', url: `/api/v1/sessions/${sid}/etl`, headers: { 'content-type': upload.contentType }, payload: upload.body });
    expect([etl.statusCode, etl.json<{ success: boolean }>().success]).toEqual([200, true]);
    expect((await plan(s)).body.current).toMatchObject({ scenario_id: id, dataset_version: 1, stale: { dataset: 'example', from_version: 1, to_version: 3 } });
    // Another key may still be stored, and the plan's dataset derived from.
    expect((await send('POST', `/sessions/${sid}/data/example/derive`, { new_key: 'copy' })).status).toBe(201);

    expect(codeOf(await send('DELETE', `/sessions/${sid}`))).toEqual([409, 'PLAN_SESSION_PROTECTED']);
    // The refused session delete cancelled nothing.
    expect((await s.status(waiting.id)).body.status).toMatch(/QUEUED|PROCESSING/);

    expect((await withdraw(s)).status).toBe(200);
    expect((await s.reset(id)).status).toBe(200);
    expect((await s.run(id)).status).toBe(202);
    expect((await s.delete(id)).status).toBe(204);
    expect((await send('DELETE', `/sessions/${sid}`)).status).toBe(200);
  });

  it('holds the protection in the store itself, so a write that skipped the checks is refused too', async () => {
    const s = await session();
    const id = await complete(s, 'plan');
    expect((await publish(s, id)).status).toBe(201);
    const { store } = t.runtime.services;
    const sessionId = (await t.runtime.services.sessions.resolve(s.sid)).id;
    const refusal = async (write: Promise<unknown>) => planProtectionOf(await write.then(() => undefined, (err: unknown) => err));
    expect(await refusal(store.db.deleteFrom('scenarios').where('id', '=', id).execute())).toBe('scenario');
    expect(await refusal(store.db.updateTable('scenarios').set({ status: 'CREATED' }).where('id', '=', id).execute())).toBe('scenario');
    expect(await refusal(store.db.updateTable('scenarios').set({ algo_params: '{"changed":true}' }).where('id', '=', id).execute())).toBe('scenario');
    // New data may come under the plan's key; the version the plan was computed on may not go.
    await store.db.updateTable('datasets').set({ version: 'v2' }).where('session_id', '=', sessionId).where('key', '=', 'example').execute();
    const planVersion = store.db.deleteFrom('dataset_versions').where('session_id', '=', sessionId).where('key', '=', 'example').where('version_no', '=', 1);
    expect(await refusal(planVersion.execute())).toBe('dataset');
    expect(await refusal(store.db.deleteFrom('datasets').where('session_id', '=', sessionId).where('key', '=', 'example').execute())).toBe('dataset');
    expect(await refusal(store.db.deleteFrom('sessions').where('id', '=', sessionId).execute())).toBe('session');
    // What the plan did not decide stays free: its tag, and other scenarios.
    await store.db.updateTable('scenarios').set({ tag: 'renamed' }).where('id', '=', id).execute();
    expect((await s.get(id)).body).toMatchObject({ status: 'COMPLETE', tag: 'renamed' });
    await withdraw(s);
  });

  it('publishes once of two concurrent publications of different scenarios, the other superseding it', async () => {
    const s = await session();
    const [a, b] = [await complete(s, 'a'), await complete(s, 'b')];
    const replies = await Promise.all([publish(s, a), publish(s, b)]);
    expect(replies.map((r) => r.status)).toEqual([201, 201]);
    const read = (await plan(s)).body;
    expect(read.history).toHaveLength(1);
    expect([read.current!.scenario_id, read.history[0]!.scenario_id].sort()).toEqual([a, b].sort());
  });
});

function detailOfReply(reply: Reply): string {
  return (reply.body as ErrorReply).detail;
}
