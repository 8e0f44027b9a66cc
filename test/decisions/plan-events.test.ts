import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueToken } from '../../src/auth/issue-token.js';
import type { PlanView } from '../../src/decisions/plan-view.js';
import { connectSse } from '../events/support/sse-client.js';
import { call, tokensOf } from '../auth/support.js';
import { injectSender, ScenarioClient } from '../fixtures/scenario-client.js';
import { DIALECTS } from '../support/dialects.js';
import { freePort } from '../support/server-process.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { startReceiver, type Receiver } from '../webhooks/support/receiver.js';

describe.each(DIALECTS)('plan events on %s', (dialect) => {
  let t: TestApp;
  let base: string;
  let receiver: Receiver;
  let receiverUrl: string;
  beforeAll(async () => {
    // The receiver listens on loopback, which webhooks reach only when an operator allows it.
    t = await startTestApp(dialect, { webhook_allow_networks: ['127.0.0.0/8'] });
    base = `${await t.app.listen({ port: 0, host: '127.0.0.1' })}/api/v1`;
    const port = await freePort();
    receiver = await startReceiver(port);
    receiverUrl = `http://127.0.0.1:${port}/hooks`;
  });
  afterAll(async () => {
    await receiver?.close();
    await t?.close();
  });

  it('sends plan.published and plan.withdrawn with the KPIs and who, over SSE and as signed webhooks', async () => {
    const send = injectSender(t.app);
    expect((await send('POST', '/sessions/main/copy', { new_display_name: 'events' })).status).toBe(201);
    const s = new ScenarioClient(send, 'events');
    const hook = await send('POST', '/sessions/events/webhooks', { url: receiverUrl, events: ['plan.published', 'plan.withdrawn'], secret: 's3cret' });
    expect(hook.status).toBe(201);
    const stream = await connectSse(`${base}/sessions/events/events`);
    const started = await s.started({ tag: 'chosen', algo_name: 'Instant' });
    await s.waitFor(started.id);
    const published = (await send('POST', `/sessions/events/scenarios/${started.id}/publish`, { note: 'go with it' })).body as PlanView;
    const withdrawn = await send('DELETE', '/sessions/events/plan', { note: 'changed our mind' });
    expect(withdrawn.status).toBe(200);

    await stream.waitFor((events) => events.some((e) => e.type === 'plan.withdrawn'), 30_000, 'the withdrawal');
    stream.close();
    const planEvents = stream.events.filter((e) => e.type.startsWith('plan.'));
    const common = { plan_id: published.id, scenario_id: started.id, tag: 'chosen', dataset_key: 'example', kpis: published.kpis, by: { id: 'local', name: 'local' } };
    expect(planEvents.map((e) => e.data)).toEqual([
      { id: planEvents[0]!.id, type: 'plan.published', session_id: expect.any(String), at: expect.any(String), ...common, note: 'go with it', superseded_plan_id: null },
      { id: planEvents[1]!.id, type: 'plan.withdrawn', session_id: expect.any(String), at: expect.any(String), ...common, note: 'changed our mind' },
    ]);
    expect(Object.keys(published.kpis).length).toBeGreaterThan(0);

    await receiver.waitFor((r) => r.filter((x) => x.body.includes('"plan.')).length >= 2, 30_000, 'two plan deliveries');
    const delivered = receiver.requests.map((r) => ({ ...r, data: JSON.parse(r.body) as { id: number; type: string } })).filter((r) => r.data.type.startsWith('plan.'));
    delivered.sort((x, y) => x.data.id - y.data.id);
    expect(delivered.map((r) => r.data)).toEqual(planEvents.map((e) => e.data));
    for (const r of delivered) {
      const ts = r.headers['x-scenarist-timestamp'] as string;
      expect(r.headers['x-scenarist-signature']).toBe(`sha256=${createHmac('sha256', 's3cret').update(`${ts}.${r.body}`).digest('hex')}`);
      expect(r.headers['x-scenarist-event']).toBe(r.data.type);
    }
  });
});

describe.each(DIALECTS)('who decided, with authentication on, on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(dialect, { auth: 'token' });
  });
  afterAll(() => t?.close());

  it("records the token's id and name as who published and withdrew; a read token may look but not publish", async () => {
    const planner = await issueToken(tokensOf(t), { scope: 'run', name: 'planning desk' });
    const reader = await issueToken(tokensOf(t), { scope: 'read' });
    const as = (token: string) => (method: 'GET' | 'POST' | 'DELETE', path: string, payload?: unknown) => call(t.app, method, path, { token, payload });
    const api = as(planner.token);
    const created = (await api('POST', '/sessions/main/scenarios', { tag: 'authored', dataset_key: 'example', algo_name: 'Instant' })).json<{ id: string }>();
    expect((await api('POST', `/sessions/main/scenarios/${created.id}/run`)).statusCode).toBe(202);
    const s = new ScenarioClient(async (method, path, payload) => {
      const res = await api(method as 'GET', path, payload);
      return { status: res.statusCode, body: res.body === '' ? undefined : (JSON.parse(res.body) as unknown) };
    }, 'main');
    await s.waitFor(created.id);

    expect((await as(reader.token)('POST', `/sessions/main/scenarios/${created.id}/publish`, { note: 'no' })).statusCode).toBe(403);
    expect((await call(t.app, 'POST', `/sessions/main/scenarios/${created.id}/publish`, { payload: { note: 'no' } })).statusCode).toBe(401);
    const published = await api('POST', `/sessions/main/scenarios/${created.id}/publish`, { note: 'desk decision' });
    expect(published.statusCode).toBe(201);
    expect(published.json<PlanView>().published_by).toEqual({ id: planner.record.id, name: 'planning desk' });
    expect((await as(reader.token)('GET', '/sessions/main/plan')).json<{ current: PlanView }>().current.published_by).toEqual({ id: planner.record.id, name: 'planning desk' });
    const withdrawn = await api('DELETE', '/sessions/main/plan', { note: 'desk changed its mind' });
    expect(withdrawn.json<PlanView>().ended).toMatchObject({ how: 'withdrawn', by: { id: planner.record.id, name: 'planning desk' } });
  });
});
