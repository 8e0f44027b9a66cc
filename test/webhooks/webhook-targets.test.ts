import { randomUUID } from 'node:crypto';
import pino from 'pino';
import { EventLog } from '../../src/store/event-log.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AddressPolicy } from '../../src/webhooks/address-policy.js';
import { DeliveryDispatcher } from '../../src/webhooks/delivery-dispatcher.js';
import { WebhookService } from '../../src/webhooks/webhook-service.js';
import { DIALECTS } from '../support/dialects.js';
import { freePort } from '../support/server-process.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { useTestStore } from '../support/test-store.js';
import { until } from '../support/until.js';
import { startReceiver, type Receiver } from './support/receiver.js';

/** Internal targets by class, each in the spellings a client could try (the WHATWG parser reads them all). */
const LITERAL_TARGETS: readonly (readonly [string, string])[] = [
  ['loopback', 'http://127.0.0.1/'],
  ['loopback', 'http://2130706433/'], // decimal
  ['loopback', 'http://0x7f000001/'], // hex
  ['loopback', 'http://0x7f.0.0.1/'],
  ['loopback', 'http://0177.0.0.1/'], // octal
  ['loopback', 'http://017700000001/'],
  ['loopback', 'http://127.1/'], // short form
  ['loopback', 'http://[::1]/'],
  ['loopback', 'http://[::ffff:127.0.0.1]/'], // IPv4-mapped IPv6
  ['loopback', 'http://[0:0:0:0:0:ffff:7f00:1]/'],
  ['loopback', 'http://[::127.0.0.1]:9/'], // IPv4-compatible IPv6 (::/96), which the URL parser writes [::7f00:1]
  ['loopback', 'http://[::7f00:1]/'],
  ['private', 'http://10.0.0.1/'],
  ['private', 'http://172.16.5.4:8080/'],
  ['private', 'http://192.168.1.1/'],
  ['private', 'http://[::ffff:10.1.2.3]/'],
  ['private', 'http://[::10.1.2.3]/'],
  ['linkLocal', 'http://169.254.169.254/latest/meta-data/'],
  ['linkLocal', 'http://2852039166/'], // 169.254.169.254 in decimal
  ['linkLocal', 'http://[fe80::1]/'],
  ['uniqueLocal', 'http://[fd00::1]/'],
  ['multicast', 'http://224.0.0.1/'],
  ['multicast', 'http://[ff02::1]/'],
  ['unspecified', 'http://0.0.0.0/'],
  ['unspecified', 'http://0/'],
  ['unspecified', 'http://[::]/'],
  ['unspecified', 'http://[::0.0.0.2]/'], // in ::/96 but judged as 0.0.0.2, not as ::2
];

describe.each(DIALECTS)('webhook targets at registration on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(dialect);
  });
  afterAll(async () => t?.close());

  const register = (url: string, sid = 'main') => t.app.inject({ method: 'POST', url: `/api/v1/sessions/${sid}/webhooks`, payload: { url } });

  it.each(LITERAL_TARGETS)('refuses a %s address written %s with 422, naming the class and the setting', async (addressClass, url) => {
    const res = await register(url);
    expect(res.statusCode).toBe(422);
    const body = res.json<{ detail: string; code: string; errors: { path: string; message: string }[] }>();
    expect(body.detail).toContain(`${addressClass} address`);
    expect(body.detail).toContain('webhook_allow_networks');
    expect(body.errors).toEqual([{ path: 'url', message: expect.stringContaining(addressClass) as string }]);
    expect((await t.app.inject({ method: 'GET', url: '/api/v1/sessions/main/webhooks' })).json()).toEqual({ webhooks: [] });
  });

  it.each(['http://localhost/', 'http://LOCALHOST./', 'http://localhost../x', 'http://a.localhost/', 'http://A.B.LocalHost.:8080/', 'http://localhost.localdomain/', 'http://localhost.localdomain./'])(
    'refuses %s, a name of this machine, at registration as a loopback address',
    async (url) => {
      const res = await register(url);
      expect(res.statusCode).toBe(422);
      const body = res.json<{ code: string; errors: { path: string; message: string }[] }>();
      expect(body.code).toBe('WEBHOOK_TARGET_REFUSED');
      expect(body.errors).toEqual([{ path: 'url', message: expect.stringMatching(/^the host \S+ \(a name of this machine\) is a loopback address; .*webhook_allow_networks/) as string }]);
      expect((await t.app.inject({ method: 'GET', url: '/api/v1/sessions/main/webhooks' })).json()).toEqual({ webhooks: [] });
    },
  );

  it('accepts a public address and a host name (names are judged at delivery)', async () => {
    await t.app.inject({ method: 'POST', url: '/api/v1/sessions', payload: { display_name: 'public targets' } });
    expect((await register('https://93.184.215.14/hook', 'public targets')).statusCode).toBe(201);
    expect((await register('https://hooks.example.com/x', 'public targets')).statusCode).toBe(201);
  });
});

describe('webhook_allow_networks', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(DIALECTS[0]!, { webhook_allow_networks: ['127.0.0.0/8', 'fd00::/8'] });
  });
  afterAll(async () => t?.close());

  it('lets an operator allow internal ranges, and only those', async () => {
    const register = (url: string) => t.app.inject({ method: 'POST', url: '/api/v1/sessions/main/webhooks', payload: { url } });
    expect((await register('http://2130706433:9/')).statusCode).toBe(201);
    expect((await register('http://[::ffff:127.0.0.1]:9/')).statusCode).toBe(201);
    expect((await register('http://[::127.0.0.1]:9/')).statusCode).toBe(201);
    expect((await register('http://[fd12::3]/')).statusCode).toBe(201);
    // A name of this machine stands for the loopback range the operator allowed.
    expect((await register('http://a.localhost./')).statusCode).toBe(201);
    expect((await register('http://10.0.0.1/')).statusCode).toBe(422);
    expect((await register('http://[::1]/')).statusCode).toBe(422);
  });
});

describe.each(DIALECTS)('webhook targets at delivery on %s', (dialect) => {
  let receiver: Receiver;
  let port: number;
  beforeAll(async () => {
    port = await freePort();
    receiver = await startReceiver(port);
  });
  afterAll(async () => receiver?.close());

  describe('a name that truly resolves to loopback', () => {
    let t: TestApp;
    beforeAll(async () => {
      // Registered while the operator allowed loopback (a name of this machine is refused at registration otherwise) ...
      t = await startTestApp(dialect, { webhook_allow_networks: ['127.0.0.0/8', '::1/128'] });
    });
    afterAll(async () => t?.close());

    it('is refused at delivery without a request reaching the listener on 127.0.0.1', async () => {
      let api = (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) => t.app.inject({ method, url: `/api/v1${url}`, ...(payload ? { payload } : {}) });
      await api('POST', '/sessions', { display_name: 'aims at localhost' });
      const hook = (await api('POST', '/sessions/aims at localhost/webhooks'.replaceAll(' ', '%20'), { url: `http://localhost:${port}/hook`, events: ['session.renamed'] })).json<{ id: string }>();
      // ... then delivered by a server whose operator no longer allows it: the name is resolved and judged again.
      await t.stop();
      t = await startTestApp(dialect, {}, t.database);
      api = (method, url, payload) => t.app.inject({ method, url: `/api/v1${url}`, ...(payload ? { payload } : {}) });
      expect((await api('PATCH', '/sessions/aims%20at%20localhost', { display_name: 'aimed at localhost' })).statusCode).toBe(200);
      const read = async () =>
        (await api('GET', `/sessions/aimed%20at%20localhost/webhooks/${hook.id}/deliveries`)).json<{ deliveries: { status: string; error: string | null; response_status: number | null; attempts: number }[] }>()
          .deliveries;
      const [failed] = await until('the refused delivery', async () => {
        const d = await read();
        return d[0]?.status === 'failed' && d;
      }, { within: 30_000 });
      expect(failed).toMatchObject({ attempts: 1, response_status: null });
      expect(failed!.error).toMatch(/^the host localhost is an? (loopback|unspecified) address; .*webhook_allow_networks/);
      expect(receiver.requests).toEqual([]);
    });
  });

  describe('a name resolved by an injected resolver', () => {
    const store = useTestStore(dialect);
    const RESOLVED: readonly (readonly [string, string])[] = [
      ['loopback', '127.0.0.1'],
      ['loopback', '::ffff:127.0.0.1'],
      ['loopback', '::7f00:1'],
      ['loopback', '::127.0.0.1'],
      ['loopback', '::1'],
      ['unspecified', '::'],
      ['private', '10.20.30.40'],
      ['private', '192.168.0.10'],
      ['linkLocal', '169.254.169.254'],
      ['linkLocal', 'fe80::1'],
      ['uniqueLocal', 'fd00::1'],
      ['multicast', '239.1.2.3'],
      ['unspecified', '0.0.0.0'],
    ];

    it.each(RESOLVED)('refuses a name that resolves to a %s address (%s); nothing reaches the listener', async (addressClass, address) => {
      const db = store().db;
      const sessionId = randomUUID();
      const hooks = new WebhookService(db, new AddressPolicy());
      const hook = await hooks.create(sessionId, { url: `http://receiver.internal.test:${port}/hook` });
      // Logged through the outbox, which queues the webhook's delivery, due at once.
      await db.insertInto('event_outbox').values({ session_id: sessionId, type: 'session.renamed', details: '{}' }).execute();
      await new EventLog(db, dialect).number();
      const asked: string[] = [];
      const dispatcher = new DeliveryDispatcher({
        db,
        dialect,
        log: pino({ level: 'silent' }),
        policy: new AddressPolicy(),
        resolve: async (name) => {
          asked.push(name);
          return [address];
        },
      });
      dispatcher.start();
      try {
        const [delivery] = await until('the refused delivery', async () => {
          const d = await hooks.deliveries(sessionId, hook.id);
          return d[0]?.status === 'failed' && d;
        }, { within: 30_000 });
        expect(delivery).toMatchObject({ attempts: 1, response_status: null, delivered_at: null });
        expect(delivery!.error).toBe(
          `the host receiver.internal.test is ${/^[aeiou]/i.test(addressClass) ? 'an' : 'a'} ${addressClass} address; webhooks go only to public addresses (an operator may allow an internal range with the webhook_allow_networks setting)`,
        );
      } finally {
        await dispatcher.close();
      }
      expect(asked).toContain('receiver.internal.test');
      expect(receiver.requests).toEqual([]);
    });

    it('connects to the address it checked, and shows only the status of a receiver it reached', async () => {
      const db = store().db;
      const sessionId = randomUUID();
      const policy = new AddressPolicy(['127.0.0.0/8']);
      const hooks = new WebhookService(db, policy);
      const hook = await hooks.create(sessionId, { url: `http://pinned.internal.test:${port}/hook` });
      // Logged through the outbox, which queues the webhook's delivery, due at once.
      await db.insertInto('event_outbox').values({ session_id: sessionId, type: 'session.renamed', details: '{}' }).execute();
      await new EventLog(db, dialect).number();
      // The first answer is the allowed address; a rebinding second answer would be refused, but is never asked.
      let answers = 0;
      const dispatcher = new DeliveryDispatcher({ db, dialect, log: pino({ level: 'silent' }), policy, resolve: async () => (answers++ === 0 ? ['127.0.0.1'] : ['169.254.169.254']) });
      receiver.status = 302; // a redirect is recorded as its status, never followed
      dispatcher.start();
      try {
        await receiver.waitFor((r) => r.length >= 1, 30_000, 'the pinned request');
        const [delivery] = await until('the recorded attempt', async () => {
          const d = await hooks.deliveries(sessionId, hook.id);
          return (d[0]?.attempts ?? 0) >= 1 && d;
        }, { within: 30_000 });
        expect(delivery).toMatchObject({ status: 'pending', response_status: 302, error: 'the receiver answered 302' });
      } finally {
        await dispatcher.close();
        receiver.status = 204;
      }
      expect(receiver.requests[0]!.headers.host).toBe(`pinned.internal.test:${port}`);
      receiver.requests.length = 0;
    });
  });
});
