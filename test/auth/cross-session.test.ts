import { randomUUID } from 'node:crypto';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { guardedRoutes, type GuardedRoute } from '../../src/http/auth/install.js';
import { scopeAllows } from '../../src/auth/scopes.js';
import { SCOPES } from '../../src/model/token-scopes.js';
import { DIALECTS } from '../support/dialects.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { until } from '../support/until.js';
import { call, PREFIX, tokenFor, type SessionList } from './support.js';

/**
 * A token bound to one session must not read, run or delete anything of another, on EVERY route the
 * app has, including routes added after this test was written: the routes come from the app itself.
 */
/** The scopes a session-bound token is made for; a `metrics` token reaches /metrics only (test/metrics). */
const SESSION_SCOPES = SCOPES.filter((scope) => scope !== 'metrics');

/** Fastify writes a literal colon in a path as `::`; marks it (NUL before the colon) so it is not read as a parameter. */
const literalColons = (url: string) => url.replace(/::/g, '\0:');

describe.each(DIALECTS)('session-bound tokens against another session on %s', (dialect) => {
  let t: TestApp;
  let admin: string;
  const own = { id: '', scenarioId: '' };
  const other = { id: '', name: 'victim', scenarioId: '' };
  let before: unknown;
  let routes: readonly GuardedRoute[];
  const bound: Record<string, string> = {};

  /** Everything of the other session a leak or a write would show in. */
  const snapshot = async () => {
    const get = async (path: string) => (await call(t.app, 'GET', path, { token: admin })).json<unknown>();
    const sessions = (await get('/sessions')) as SessionList;
    return {
      session: sessions.sessions.find((s) => s.id === other.id),
      data: await get(`/sessions/${other.id}/data`),
      dataset: await get(`/sessions/${other.id}/data/example`),
      scenarios: await get(`/sessions/${other.id}/scenarios`),
      logs: await get(`/sessions/${other.id}/scenarios/${other.scenarioId}/logs`),
    };
  };

  beforeAll(async () => {
    t = await startTestApp(dialect, { auth: 'token' });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    admin = await tokenFor(t, 'admin');
    const list = (await call(t.app, 'GET', '/sessions', { token: admin })).json<SessionList>();
    own.id = list.default;
    const copied = await call(t.app, 'POST', '/sessions/main/copy', { token: admin, payload: { new_display_name: other.name } });
    other.id = copied.json<SessionList>().sessions.find((s) => s.display_name === other.name)!.id;
    const create = async (sid: string, tag: string) =>
      (await call(t.app, 'POST', `/sessions/${sid}/scenarios`, { token: admin, payload: { tag, dataset_key: 'example', algo_name: 'As-Is Slotting' } })).json<{ id: string }>().id;
    own.scenarioId = await create(own.id, 'mine');
    other.scenarioId = await create(other.id, 'theirs');
    expect((await call(t.app, 'POST', `/sessions/${other.id}/scenarios/${other.scenarioId}/run`, { token: admin })).statusCode).toBe(202);
    let status = '';
    await until(() => `the other session's scenario to finish (${status})`, async () => {
      status = (await call(t.app, 'GET', `/sessions/${other.id}/scenarios/${other.scenarioId}/status`, { token: admin })).json<{ status: string }>().status;
      return status === 'COMPLETE' || status === 'FAILED';
    });
    for (const scope of SCOPES) bound[scope] = await tokenFor(t, scope, own.id);
    routes = guardedRoutes(t.app);
    before = await snapshot();
  });
  afterAll(() => t?.close());

  /**
   * A body each state-changing route accepts past the request guard (which answers 415 to a media type
   * the route does not take, before any token or store is looked at): multipart for the upload route,
   * and the required tag of a branch and note of a publication, so those routes get as far as looking up
   * their scenario.
   */
  const bodyFor = (route: GuardedRoute): Pick<InjectOptions, 'payload' | 'headers'> =>
    route.method === 'GET' || route.method === 'HEAD'
      ? {}
      : route.url.endsWith('/etl')
        ? { payload: '', headers: { 'content-type': 'multipart/form-data; boundary=x' } }
        : route.url.endsWith('/branch')
          ? { payload: { tag: 'probe' } }
          : route.url.endsWith('/publish')
            ? { payload: { note: 'probe' } }
            : { payload: {} };

  /** GET of a route; an event stream never ends, so it is read only until its headers arrive. */
  const getOwn = async (url: string, token: string): Promise<{ statusCode: number; body: string }> => {
    if (!url.endsWith('/events')) {
      const res = await t.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
      return { statusCode: res.statusCode, body: res.body };
    }
    const address = t.app.server.address();
    if (address === null || typeof address === 'string') throw new Error('the test app is not listening');
    const controller = new AbortController();
    const res = await fetch(`http://127.0.0.1:${address.port}${url}`, { headers: { authorization: `Bearer ${token}` }, signal: controller.signal });
    controller.abort();
    return { statusCode: res.status, body: '(event stream)' };
  };

  /** The route's URL with the other session's values in its parameters. */
  const fill = (url: string, values: Record<string, string>) =>
    literalColons(url)
      .replace(/(?<!\0):(\w+)/g, (_m, name: string) => encodeURIComponent(values[name] ?? 'x'))
      .replace(/\0:/g, ':')
      .replace(/\*$/, 'x');

  it('sees every route of the app (the OpenAPI document lists nothing the guard missed)', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json<{ servers: { url: string }[]; paths: Record<string, Record<string, unknown>> }>();
    const seen = new Set(routes.map((r) => `${r.method} ${literalColons(r.url).replace(/\0/g, '')}`));
    // The document's paths are relative to its one server, the API prefix.
    const server = doc.servers[0]!.url;
    const documented = Object.entries(doc.paths).flatMap(([path, ops]) =>
      Object.keys(ops).map((method) => `${method.toUpperCase()} ${server}${path.replace(/\{(\w+)\}/g, ':$1')}`),
    );
    expect(documented.length).toBeGreaterThan(15);
    for (const route of documented) expect(seen, route).toContain(route);
  });

  it('leaves public only the probe, the API description and the static UIs', () => {
    const open = routes.filter((r) => r.access.token !== 'required');
    expect(open.length).toBeGreaterThan(0);
    for (const route of open) {
      // `GET /` (and the prefix) only redirects to the dashboard.
      const publicPath = /^(\/api\/v1)?\/(health|openapi\.json|docs|ui)(\/|$)/.test(route.url) || /^(\/api\/v1)?\/?$/.test(route.url);
      expect(publicPath || route.method === 'OPTIONS', `${route.method} ${route.url}`).toBe(true);
    }
  });

  // Hundreds of requests, each refusal with its audit entry: minutes on a loaded machine.
  it.each(SESSION_SCOPES)('refuses a %s token of one session on every route of the other (by id, by name, and for unknown sessions alike)', async (scope) => {
    const token = bound[scope]!;
    const targets = [other.id, other.name, other.id.toUpperCase(), randomUUID(), 'no-such-session'];
    let checked = 0;
    for (const route of routes) {
      if (route.access.token !== 'required') continue;
      if (route.access.boundTokens === 'filtered') {
        const res = await t.app.inject({ method: route.method as InjectOptions['method'], url: route.url, headers: { authorization: `Bearer ${token}` } });
        expect(res.statusCode, `${route.method} ${route.url}`).toBe(200);
        if (route.method !== 'HEAD') expect(res.body).not.toContain(other.id);
        continue;
      }
      for (const sid of targets) {
        const url = fill(route.url, { sid, id: other.scenarioId, key: 'example', name: 'As-Is Slotting' });
        const body = bodyFor(route);
        const res = await t.app.inject({
          method: route.method as InjectOptions['method'],
          url,
          payload: body.payload,
          headers: { ...body.headers, authorization: `Bearer ${token}` },
        });
        expect(res.statusCode, `${route.method} ${url}`).toBe(403);
        if (route.method !== 'HEAD') {
          expect(res.json(), `${route.method} ${url}`).toMatchObject({ detail: expect.any(String) });
          // The refusal is the same whatever the other session holds or whether it exists at all.
          for (const secret of [other.id, other.scenarioId, other.name]) expect(res.body, url).not.toContain(secret);
        }
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(50);
    expect(await snapshot()).toEqual(before);
  }, 180_000);

  it('cannot reach the other session\'s scenarios through its own {sid} either (404, nothing changes)', async () => {
    const token = bound.admin!;
    let checked = 0;
    for (const route of routes) {
      if (route.access.token !== 'required' || !route.url.includes('/scenarios/:id')) continue;
      const url = fill(route.url, { sid: own.id, id: other.scenarioId, key: 'example', name: 'As-Is Slotting' });
      const body = bodyFor(route);
      const res = await t.app.inject({
        method: route.method as InjectOptions['method'],
        url,
        payload: body.payload,
        headers: { ...body.headers, authorization: `Bearer ${token}` },
      });
      expect(res.statusCode, `${route.method} ${url}`).toBe(404);
      if (route.method !== 'HEAD') expect(res.body).not.toContain('theirs');
      checked++;
    }
    // get, delete, run, reset, cancel, status, result, logs
    expect(checked).toBeGreaterThanOrEqual(8);
    expect(await snapshot()).toEqual(before);
  });

  it.each(SESSION_SCOPES)('still serves a %s token every read route of its own session', async (scope) => {
    const token = bound[scope]!;
    for (const route of routes) {
      if (route.access.token !== 'required' || route.method !== 'GET' || route.access.boundTokens !== 'own-session') continue;
      // A read route may ask for more than `read` (the audit trail needs `run`): the refusal is then about scope.
      if (!scopeAllows(scope, route.access.scope)) continue;
      const url = fill(route.url, { sid: own.id, id: own.scenarioId, key: 'example', name: 'As-Is Slotting' });
      const res = await getOwn(url, token);
      expect([401, 403], `${url}: ${res.body}`).not.toContain(res.statusCode);
    }
  });

  it('lets the other session be reached by a token for every session (the 403s above are about binding)', async () => {
    const res = await call(t.app, 'GET', `/sessions/${other.name}/scenarios/${other.scenarioId}`, { token: admin });
    expect(res.statusCode).toBe(200);
    expect(PREFIX).toBe('/api/v1');
  });
});
