import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EVENT_TYPES } from '../../src/model/event-types.js';
import { MAX_WEBHOOKS_PER_SESSION } from '../../src/webhooks/webhook-service.js';
import { DIALECTS } from '../support/dialects.js';
import { freePort } from '../support/server-process.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { until } from '../support/until.js';
import { startReceiver, type Receiver } from './support/receiver.js';

interface Webhook {
  id: string;
  url: string;
  events: string[];
  created_at: string;
  secret?: string;
}

describe.each(DIALECTS)('webhook routes and deliveries on %s', (dialect) => {
  let t: TestApp;
  let receiver: Receiver;
  let receiverUrl: string;
  beforeAll(async () => {
    // The receiver listens on loopback, which webhooks reach only when an operator allows it.
    t = await startTestApp(dialect, { webhook_allow_networks: ['127.0.0.0/8'] });
    const port = await freePort();
    receiver = await startReceiver(port);
    receiverUrl = `http://127.0.0.1:${port}/hooks`;
  });
  afterAll(async () => {
    await receiver?.close();
    await t?.close();
  });

  const api = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, payload?: unknown) =>
    t.app.inject({ method, url: `/api/v1${url}`, ...(payload === undefined ? {} : { payload: payload as object }) });
  const listOf = async (sid: string) => (await api('GET', `/sessions/${sid}/webhooks`)).json<{ webhooks: Webhook[] }>().webhooks;

  it('registers a webhook for every event type with a generated secret shown only once', async () => {
    const res = await api('POST', '/sessions/main/webhooks', { url: receiverUrl });
    expect(res.statusCode).toBe(201);
    const created = res.json<Webhook>();
    expect(created).toMatchObject({ url: receiverUrl, events: [...EVENT_TYPES] });
    expect(created.secret).toMatch(/^whsec_[0-9a-f]{48}$/);
    const listed = await listOf('main');
    expect(listed).toEqual([{ id: created.id, url: receiverUrl, events: [...EVENT_TYPES], created_at: created.created_at }]);
    expect((await api('GET', `/sessions/main/webhooks/${created.id}`)).json()).toEqual(listed[0]);
    expect((await api('GET', `/sessions/main/webhooks/${created.id}/deliveries`)).json()).toEqual({ deliveries: [] });
    expect((await api('DELETE', `/sessions/main/webhooks/${created.id}`)).statusCode).toBe(204);
    expect((await api('GET', `/sessions/main/webhooks/${created.id}`)).statusCode).toBe(404);
    expect((await api('DELETE', `/sessions/main/webhooks/${created.id}`)).statusCode).toBe(404);
  });

  it.each([
    ['a non-http scheme', { url: 'ftp://example.com/x' }, 'url'],
    ['a javascript URL', { url: 'javascript:alert(1)' }, 'url'],
    ['a relative URL', { url: '/hooks' }, 'url'],
    ['credentials in the URL', { url: 'http://user:pw@example.com/' }, 'url'],
    ['a missing url', { events: ['scenario.completed'] }, 'url'],
    ['an empty event list', { url: 'http://example.com/', events: [] }, 'events'],
    ['an unknown event type', { url: 'http://example.com/', events: ['scenario.exploded'] }, 'events'],
    ['an empty secret', { url: 'http://example.com/', secret: '' }, 'secret'],
    ['a url of the wrong type', { url: 42 }, 'url'],
  ])('answers 422 for %s and stores nothing', async (_case, body, field) => {
    const res = await api('POST', '/sessions/main/webhooks', body);
    expect(res.statusCode).toBe(422);
    const error = res.json<{ detail: string; errors: { path: string }[] }>();
    expect(error.detail).toContain(field);
    expect(error.errors.some((e) => e.path.startsWith(field))).toBe(true);
    expect(await listOf('main')).toEqual([]);
  });

  it('answers 404 for an unknown session or webhook', async () => {
    for (const [method, url] of [
      ['POST', '/sessions/nope/webhooks'],
      ['GET', '/sessions/nope/webhooks'],
      ['GET', '/sessions/main/webhooks/nope'],
      ['DELETE', '/sessions/main/webhooks/nope'],
      ['GET', '/sessions/main/webhooks/nope/deliveries'],
    ] as const) {
      const res = await api(method, url, method === 'POST' ? { url: receiverUrl } : undefined);
      expect(res.statusCode, `${method} ${url}`).toBe(404);
      expect(res.json().detail).toContain('not found');
    }
  });

  it(`refuses a webhook beyond ${MAX_WEBHOOKS_PER_SESSION} per session with 409`, async () => {
    await api('POST', '/sessions', { display_name: 'crowded' });
    for (let i = 0; i < MAX_WEBHOOKS_PER_SESSION; i++) {
      expect((await api('POST', '/sessions/crowded/webhooks', { url: `${receiverUrl}/${i}`, events: ['dataset.deleted'] })).statusCode).toBe(201);
    }
    const res = await api('POST', '/sessions/crowded/webhooks', { url: receiverUrl });
    expect(res.statusCode).toBe(409);
    expect(await listOf('crowded')).toHaveLength(MAX_WEBHOOKS_PER_SESSION);
  });

  it('delivers signed events of the subscribed types, session.deleted included after the session is gone', async () => {
    await api('POST', '/sessions', { display_name: 'watched' });
    const hook = (await api('POST', '/sessions/watched/webhooks', { url: receiverUrl, events: ['session.renamed', 'session.deleted'], secret: 's3cret' })).json<Webhook>();
    const from = receiver.requests.length;
    expect((await api('PATCH', '/sessions/watched', { display_name: 'watched twice' })).statusCode).toBe(200);
    const sessionId = (await api('GET', '/sessions')).json<{ sessions: { id: string; display_name: string }[] }>().sessions.find((s) => s.display_name === 'watched twice')!.id;
    expect((await api('DELETE', `/sessions/${sessionId}`)).statusCode).toBe(200);
    await receiver.waitFor((r) => r.length >= from + 2, 30_000, 'two deliveries');

    const got = receiver.requests.slice(from).map((r) => ({ ...r, data: JSON.parse(r.body) as { id: number; type: string; session_id: string; display_name?: string } }));
    got.sort((x, y) => x.data.id - y.data.id);
    expect(got.map((r) => r.data.type)).toEqual(['session.renamed', 'session.deleted']);
    expect(got[0]!.data).toMatchObject({ session_id: sessionId, display_name: 'watched twice' });
    for (const r of got) {
      const ts = r.headers['x-scenarist-timestamp'] as string;
      expect(r.headers['x-scenarist-signature']).toBe(`sha256=${createHmac('sha256', 's3cret').update(`${ts}.${r.body}`).digest('hex')}`);
      expect(r.headers['x-scenarist-event']).toBe(r.data.type);
    }
    // The session is gone, so is its webhook's route; the deliveries still reached the receiver.
    expect((await api('GET', `/sessions/${sessionId}/webhooks/${hook.id}/deliveries`)).statusCode).toBe(404);
  });

  it('lists a delivery with its outcome once sent', async () => {
    await api('POST', '/sessions', { display_name: 'logged' });
    const hook = (await api('POST', '/sessions/logged/webhooks', { url: receiverUrl, events: ['session.renamed'] })).json<Webhook>();
    receiver.status = 500;
    await api('PATCH', '/sessions/logged', { display_name: 'logged 2' });
    const path = `/sessions/logged 2/webhooks/${hook.id}/deliveries`;
    const read = async () => (await api('GET', encodeURI(path))).json<{ deliveries: Record<string, unknown>[] }>().deliveries;
    const failedOnce = await until('a failed attempt', async () => {
      const d = await read();
      return d.length === 1 && (d[0]!.attempts as number) >= 1 && d;
    }, { within: 30_000 });
    expect(failedOnce[0]).toMatchObject({ event_type: 'session.renamed', status: 'pending', response_status: 500, error: 'the receiver answered 500' });
    receiver.status = 200;
    const delivered = await until('the retry', async () => {
      const d = await read();
      return d[0]?.status === 'delivered' && d;
    }, { within: 30_000 });
    expect(delivered[0]).toMatchObject({ response_status: 200, error: null, next_attempt_at: null });
    expect(delivered[0]!.attempts).toBeGreaterThanOrEqual(2);
  });
});
