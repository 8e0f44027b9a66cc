import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RawSettings } from '../../src/config/settings.js';
import { DIALECTS } from '../support/dialects.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

type Headers = Record<string, string>;

/** Everything stored that a request could change, read through the API. */
async function snapshot(t: TestApp): Promise<string> {
  const sessions = (await t.app.inject({ url: '/api/v1/sessions' })).json<{ sessions: { display_name: string }[] }>().sessions;
  const parts: unknown[] = [sessions];
  for (const s of sessions) {
    const sid = encodeURIComponent(s.display_name);
    parts.push((await t.app.inject({ url: `/api/v1/sessions/${sid}/data` })).json());
    parts.push((await t.app.inject({ url: `/api/v1/sessions/${sid}/scenarios` })).json());
  }
  return JSON.stringify(parts);
}

describe.each(DIALECTS)('request guards on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp(dialect, { workers: 0 });
  });
  afterAll(() => t?.close());

  const send = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE' | 'PUT', path: string, headers: Headers = {}, payload?: string) =>
    t.app.inject({ method, url: `/api/v1${path}`, headers, ...(payload === undefined ? {} : { payload }) });
  const createScenario = async (tag: string) =>
    (await t.app.inject({ method: 'POST', url: '/api/v1/sessions/main/scenarios', payload: { tag, dataset_key: 'example', algo_name: 'As-Is Slotting' } })).json<{ id: string }>().id;

  describe('content types', () => {
    it.each([
      ['from-json as text/plain', 'POST', '/sessions/main/data/from-json', 'text/plain', '{"key":"plain","tables":{}}'],
      ['from-json as a form', 'POST', '/sessions/main/data/from-json', 'application/x-www-form-urlencoded', 'key=x'],
      ['a session as text/plain', 'POST', '/sessions', 'text/plain', '{"display_name":"plain"}'],
      ['a rename as text/plain', 'PATCH', '/sessions/main', 'text/plain;charset=UTF-8', '{"display_name":"plain"}'],
      ['a scenario as multipart', 'POST', '/sessions/main/scenarios', 'multipart/form-data; boundary=x', '--x--\r\n'],
      ['ETL as JSON', 'POST', '/sessions/main/etl', 'application/json', '{"dataset_name":"x"}'],
      ['ETL as text/plain', 'POST', '/sessions/main/etl', 'text/plain', 'dataset_name=x'],
    ] as const)('answers %s with 415 and a detail, and stores nothing', async (_label, method, path, contentType, body) => {
      const before = await snapshot(t);
      const res = await send(method, path, { 'content-type': contentType }, body);
      expect(res.statusCode).toBe(415);
      expect(res.json().detail).toMatch(/takes/);
      expect(await snapshot(t)).toBe(before);
    });

    it('answers a body without Content-Type with 415', async () => {
      const before = await snapshot(t);
      const res = await t.app.inject({ method: 'POST', url: '/api/v1/sessions', payload: Buffer.from('{"display_name":"untyped"}') });
      expect(res.statusCode).toBe(415);
      expect(typeof res.json().detail).toBe('string');
      expect(await snapshot(t)).toBe(before);
    });

    it('accepts run and reset with Content-Type application/json and an empty body', async () => {
      const id = await createScenario('empty-json-body');
      const reset = await send('POST', `/sessions/main/scenarios/${id}/reset`, { 'content-type': 'application/json; charset=utf-8' }, '');
      expect(reset.statusCode).toBe(200);
      expect(reset.json().status).toBe('CREATED');
      const run = await send('POST', `/sessions/main/scenarios/${id}/run`, { 'content-type': 'application/json' }, '');
      expect(run.statusCode).toBe(202);
      expect(run.json().status).toBe('QUEUED');
    });

    it('accepts run and reset with no Content-Type and no body', async () => {
      const id = await createScenario('no-content-type');
      expect((await send('POST', `/sessions/main/scenarios/${id}/reset`)).statusCode).toBe(200);
      expect((await send('POST', `/sessions/main/scenarios/${id}/run`)).statusCode).toBe(202);
    });

    it('still answers an empty JSON body on a route that takes a body with 400', async () => {
      const res = await send('POST', '/sessions', { 'content-type': 'application/json' }, '');
      expect(res.statusCode).toBe(400);
      expect(typeof res.json().detail).toBe('string');
    });
  });

  describe('origins of state-changing requests', () => {
    it.each([
      ['another site', 'https://evil.example'],
      ['the same host on another port', 'http://localhost:8080'],
      ['a sandboxed page', 'null'],
      ['garbage', 'not a url'],
    ])('refuses a write from %s with 403 and stores nothing', async (_label, origin) => {
      const before = await snapshot(t);
      const res = await send('POST', '/sessions', { origin, 'content-type': 'application/json' }, '{"display_name":"csrf"}');
      expect(res.statusCode).toBe(403);
      expect(res.json().detail).toMatch(/cross-origin/);
      expect(await snapshot(t)).toBe(before);
    });

    it('refuses a cross-site run, reset, delete and multipart upload', async () => {
      const id = await createScenario('cross-site');
      const before = await snapshot(t);
      const origin = { origin: 'https://evil.example' };
      for (const [method, path] of [
        ['POST', `/sessions/main/scenarios/${id}/run`],
        ['POST', `/sessions/main/scenarios/${id}/reset`],
        ['DELETE', `/sessions/main/scenarios/${id}`],
        ['DELETE', '/sessions/main/data/example'],
      ] as const) {
        expect((await send(method, path, origin)).statusCode, `${method} ${path}`).toBe(403);
      }
      const form = await send('POST', '/sessions/main/etl', { ...origin, 'content-type': 'multipart/form-data; boundary=b' }, '--b--\r\n');
      expect(form.statusCode).toBe(403);
      expect(await snapshot(t)).toBe(before);
    });

    it("accepts a write from the service's own origin (the dashboard) and reads from anywhere", async () => {
      // inject sends Host: localhost:80, which http://localhost names with its default port.
      const own = await send('POST', '/sessions', { origin: 'http://localhost', 'content-type': 'application/json' }, '{"display_name":"same-origin"}');
      expect(own.statusCode).toBe(201);
      const read = await send('GET', '/sessions', { origin: 'https://evil.example' });
      expect(read.statusCode).toBe(200);
    });
  });

  describe('NUL characters', () => {
    it('answers a NUL in a path or query parameter with 400 rather than a store error', async () => {
      for (const url of ['/sessions/a%00b', '/sessions/main/data/k%00', '/sessions/main/scenarios/x%00/status', '/sessions/main/scenarios?q=%00']) {
        const res = await send('GET', url);
        expect(res.statusCode, url).toBe(400);
        expect(res.json().detail).toMatch(/NUL/);
      }
    });

    it('answers a NUL in any JSON string (a dataset_key, a parameter value) with 422 naming it, and stores nothing', async () => {
      const before = await snapshot(t);
      for (const [body, field] of [
        [{ tag: 'nul', dataset_key: 'ex\u0000ample', algo_name: 'As-Is Slotting' }, 'dataset_key'],
        [{ tag: 'nul', dataset_key: 'example', algo_name: 'As-Is\u0000' }, 'algo_name'],
        [{ tag: 'nul', dataset_key: 'example', algo_name: 'As-Is Slotting', data_params: { category: 'a\u0000' } }, 'data_params.category'],
        [{ tag: 'n\u0000l', dataset_key: 'example', algo_name: 'As-Is Slotting' }, 'tag'],
      ] as const) {
        const res = await send('POST', '/sessions/main/scenarios', { 'content-type': 'application/json' }, JSON.stringify(body));
        expect(res.statusCode, field).toBe(422);
        expect(res.json().errors.map((e: { path: string }) => e.path)).toContain(field);
      }
      expect(await snapshot(t)).toBe(before);
    });

    it('answers a multipart upload without boundary with 400', async () => {
      const res = await send('POST', '/sessions/main/etl', { 'content-type': 'multipart/form-data' }, '--x--\r\n');
      expect(res.statusCode).toBe(400);
      expect(res.json().detail).toMatch(/boundary/);
    });
  });

  describe('security headers', () => {
    it('sets nosniff and no-store on successes, errors and unknown routes', async () => {
      const id = await createScenario('headers');
      for (const res of [
        await send('GET', `/sessions/main/scenarios/${id}/status`),
        await send('GET', '/sessions/main/scenarios/nope/status'),
        await send('POST', '/sessions', { 'content-type': 'application/json' }, '{}'),
        await send('GET', '/nowhere'),
        await send('GET', `/sessions/${'k'.repeat(10_000)}`),
      ]) {
        expect(res.headers['x-content-type-options'], res.body).toBe('nosniff');
        expect(res.headers['cache-control'], res.body).toBe('no-store');
      }
    });
  });
});

describe('allowed_hosts', () => {
  const apps: TestApp[] = [];
  afterAll(async () => {
    for (const t of apps) await t.close();
  });
  const start = async (settings: RawSettings) => {
    const t = await startTestApp('sqlite', { workers: 0, ...settings });
    apps.push(t);
    return t;
  };
  const get = (t: TestApp, host: string, url = '/api/v1/sessions') => t.app.inject({ method: 'GET', url, headers: { host } });

  it('accepts only loopback names by default when bound to loopback (DNS rebinding), on every route', async () => {
    const t = await start({});
    for (const host of ['localhost', 'localhost:8051', '127.0.0.1:9', '[::1]:8051', 'LOCALHOST']) {
      expect((await get(t, host)).statusCode, host).toBe(200);
    }
    for (const host of ['evil.example', 'evil.example:8051', '127.0.0.1.evil.example', 'localhost.evil.example']) {
      for (const url of ['/api/v1/sessions', '/health', '/docs/']) {
        const res = await get(t, host, url);
        expect(res.statusCode, `${host} ${url}`).toBe(403);
        expect(res.json().detail).toMatch(/allowed_hosts/);
      }
    }
    const write = await t.app.inject({ method: 'POST', url: '/api/v1/sessions', headers: { host: 'evil.example' }, payload: { display_name: 'rebound' } });
    expect(write.statusCode).toBe(403);
    const names = (await get(t, 'localhost')).json<{ sessions: { display_name: string }[] }>().sessions.map((s) => s.display_name);
    expect(names).toEqual(['main']);
  });

  it('accepts any host when bound to every interface, and a configured list with wildcards', async () => {
    const open = await start({ host: '0.0.0.0', auth: 'none' });
    expect((await get(open, 'anything.example')).statusCode).toBe(200);
    const listed = await start({ host: '0.0.0.0', auth: 'none', allowed_hosts: 'api.example.com,*.internal' });
    expect((await get(listed, 'api.example.com:443')).statusCode).toBe(200);
    expect((await get(listed, 'node1.internal')).statusCode).toBe(200);
    expect((await get(listed, 'internal')).statusCode).toBe(403);
    expect((await get(listed, 'localhost')).statusCode).toBe(403);
  });
});

describe('CORS', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp('sqlite', { workers: 0, cors_origins: ['https://app.example.com'] });
  });
  afterAll(() => t?.close());

  it('allows every method the API uses and the headers clients send in a preflight', async () => {
    const res = await t.app.inject({
      method: 'OPTIONS',
      url: '/api/v1/sessions/main',
      headers: { origin: 'https://app.example.com', 'access-control-request-method': 'PATCH', 'access-control-request-headers': 'content-type,authorization,last-event-id' },
    });
    expect(res.statusCode).toBeLessThan(300);
    expect(res.headers['access-control-allow-origin']).toBe('https://app.example.com');
    const methods = String(res.headers['access-control-allow-methods']).split(/\s*,\s*/);
    expect(methods).toEqual(expect.arrayContaining(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE']));
    const headers = String(res.headers['access-control-allow-headers']).toLowerCase().split(/\s*,\s*/);
    expect(headers).toEqual(expect.arrayContaining(['content-type', 'authorization', 'last-event-id']));
  });

  it('accepts a write from a configured origin and refuses one from another', async () => {
    const write = (origin: string, name: string) =>
      t.app.inject({ method: 'POST', url: '/api/v1/sessions', headers: { origin }, payload: { display_name: name } });
    const ok = await write('https://app.example.com', 'from-app');
    expect(ok.statusCode).toBe(201);
    expect(ok.headers['access-control-allow-origin']).toBe('https://app.example.com');
    expect((await write('https://evil.example', 'from-evil')).statusCode).toBe(403);
  });
});
