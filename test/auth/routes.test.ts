import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/dialects.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { until } from '../support/until.js';
import { call, tokenFor, tokensOf, type SessionList } from './support.js';

const scenario = (tag: string) => ({ tag, dataset_key: 'example', algo_name: 'As-Is Slotting' });

describe.each(DIALECTS)('authentication on %s (auth token)', (dialect) => {
  let t: TestApp;
  let mainId: string;
  const tokens: Record<'read' | 'run' | 'admin', string> = { read: '', run: '', admin: '' };
  beforeAll(async () => {
    t = await startTestApp(dialect, { auth: 'token' });
    tokens.read = await tokenFor(t, 'read');
    tokens.run = await tokenFor(t, 'run');
    tokens.admin = await tokenFor(t, 'admin');
    mainId = (await call(t.app, 'GET', '/sessions', { token: tokens.read })).json<SessionList>().default;
  });
  afterAll(() => t?.close());

  describe('401 without a valid token', () => {
    it('answers 401 with {detail} and a Bearer challenge when no token is sent', async () => {
      const res = await call(t.app, 'GET', '/sessions');
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ detail: expect.stringContaining('Authorization: Bearer') });
      expect(res.headers['www-authenticate']).toBe('Bearer realm="scenarist"');
    });

    it.each([
      ['an unknown token of the right shape', { authorization: `Bearer sct_${'A'.repeat(43)}` }, 'invalid_token'],
      ['garbage', { authorization: 'Bearer not-a-token' }, 'invalid_token'],
      ['another scheme', { authorization: 'Basic dXNlcjpwYXNz' }, 'invalid_request'],
      ['an empty bearer', { authorization: 'Bearer ' }, 'invalid_request'],
    ])('answers 401 for %s', async (_label, headers, error) => {
      const res = await call(t.app, 'GET', '/sessions/main/scenarios', { headers });
      expect(res.statusCode).toBe(401);
      expect(typeof res.json().detail).toBe('string');
      expect(res.headers['www-authenticate']).toContain(`error="${error}"`);
    });

    it('answers 401 for a revoked token', async () => {
      const token = await tokenFor(t, 'admin');
      const [record] = (await tokensOf(t).list()).slice(-1);
      expect(await tokensOf(t).revoke(record!.id)).toBe(true);
      const res = await call(t.app, 'GET', '/sessions', { token });
      expect(res.statusCode).toBe(401);
    });

    it('checks the token before the body: no 422 and nothing stored for an anonymous bad body', async () => {
      const res = await call(t.app, 'POST', '/sessions', { payload: { display_name: 5 } });
      expect(res.statusCode).toBe(401);
      const upload = await call(t.app, 'POST', '/sessions/main/etl', {
        headers: { 'content-type': 'multipart/form-data; boundary=x' },
        payload: '--x--\r\n',
      });
      expect(upload.statusCode).toBe(401);
    });

    it('stops working within the cache time once revoked after use', async () => {
      const token = await tokenFor(t, 'read');
      expect((await call(t.app, 'GET', '/sessions', { token })).statusCode).toBe(200);
      const [record] = (await tokensOf(t).list()).slice(-1);
      await tokensOf(t).revoke(record!.id);
      // Served from the token cache for a few seconds more; refused once that entry goes.
      const status = await until('the revoked token to be refused', async () => {
        const answered = (await call(t.app, 'GET', '/sessions', { token })).statusCode;
        return answered !== 200 && answered;
      }, { every: 100 });
      expect(status).toBe(401);
    });
  });

  describe('public routes', () => {
    it.each(['/health', '/api/v1/health', '/openapi.json', '/api/v1/openapi.json', '/docs', '/api/v1/docs/json'])(
      'serves %s without a token',
      async (url) => {
        const res = await t.app.inject({ method: 'GET', url });
        // /docs redirects to its page; anything but a refusal.
        expect(res.statusCode).toBeLessThan(400);
      },
    );

    it('lists in /health only the sessions the presented token may see', async () => {
      const bound = await tokenFor(t, 'read', mainId);
      await call(t.app, 'POST', '/sessions', { token: tokens.admin, payload: { display_name: 'health-other' } });
      const names = async (token?: string) => (await call(t.app, 'GET', '/health', { token })).json<{ sessions: string[] }>().sessions;
      expect(await names()).toEqual([]);
      expect(await names('sct_bogus')).toEqual([]);
      expect(await names(bound)).toEqual(['main']);
      expect(await names(tokens.read)).toEqual(expect.arrayContaining(['main', 'health-other']));
    });
  });

  describe('403 beyond the scope', () => {
    it('lets read tokens read and nothing else', async () => {
      expect((await call(t.app, 'GET', '/sessions/main/scenarios', { token: tokens.read })).statusCode).toBe(200);
      expect((await call(t.app, 'HEAD', '/sessions/main/data', { token: tokens.read })).statusCode).toBe(200);
      const res = await call(t.app, 'POST', '/sessions/main/scenarios', { token: tokens.read, payload: scenario('by-reader') });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toMatchObject({ detail: expect.stringContaining('scope run') });
      expect(res.headers['www-authenticate']).toContain('error="insufficient_scope"');
      const list = (await call(t.app, 'GET', '/sessions/main/scenarios', { token: tokens.read })).json<{ tag: string }[]>();
      expect(list.map((s) => s.tag)).not.toContain('by-reader');
    });

    it('answers 403 before validating the body', async () => {
      const res = await call(t.app, 'POST', '/sessions/main/scenarios', { token: tokens.read, payload: { tag: 5 } });
      expect(res.statusCode).toBe(403);
    });

    it('lets run tokens write inside sessions but not manage sessions', async () => {
      const created = await call(t.app, 'POST', '/sessions/main/scenarios', { token: tokens.run, payload: scenario('by-runner') });
      expect(created.statusCode).toBe(201);
      const id = created.json<{ id: string }>().id;
      expect((await call(t.app, 'POST', `/sessions/main/scenarios/${id}/run`, { token: tokens.run })).statusCode).toBe(202);
      expect((await call(t.app, 'DELETE', `/sessions/main/scenarios/${id}`, { token: tokens.run })).statusCode).toBe(204);
      for (const [method, path, payload] of [
        ['POST', '/sessions', { display_name: 'by-runner' }],
        ['PATCH', '/sessions/main', { display_name: 'renamed-by-runner' }],
        ['POST', '/sessions/main/copy', { new_display_name: 'copied-by-runner' }],
        ['DELETE', '/sessions/main', undefined],
      ] as const) {
        const res = await call(t.app, method, path, { token: tokens.run, payload });
        expect(res.statusCode, `${method} ${path}`).toBe(403);
        expect(res.json().detail).toContain('scope admin');
      }
      const names = (await call(t.app, 'GET', '/sessions', { token: tokens.run })).json<SessionList>().sessions.map((s) => s.display_name);
      expect(names).not.toContain('by-runner');
      expect(names).not.toContain('copied-by-runner');
      expect(names).toContain('main');
    });

    it('lets admin tokens create, copy, rename and delete sessions', async () => {
      const token = tokens.admin;
      expect((await call(t.app, 'POST', '/sessions', { token, payload: { display_name: 'adm' } })).statusCode).toBe(201);
      expect((await call(t.app, 'POST', '/sessions/adm/copy', { token, payload: { new_display_name: 'adm-copy' } })).statusCode).toBe(201);
      expect((await call(t.app, 'PATCH', '/sessions/adm-copy', { token, payload: { display_name: 'adm-renamed' } })).statusCode).toBe(200);
      expect((await call(t.app, 'DELETE', '/sessions/adm-renamed', { token })).statusCode).toBe(200);
      expect((await call(t.app, 'DELETE', '/sessions/adm', { token })).statusCode).toBe(200);
    });
  });

  describe('session-bound tokens', () => {
    it('list only their own session, also as the default', async () => {
      const token = await tokenFor(t, 'admin', mainId);
      const res = await call(t.app, 'GET', '/sessions', { token });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual({ sessions: [{ id: mainId, display_name: 'main' }], default: mainId });
    });

    it('reach their session by id in any letter case and by display name', async () => {
      const token = await tokenFor(t, 'read', mainId);
      for (const sid of [mainId, mainId.toUpperCase(), 'main']) {
        expect((await call(t.app, 'GET', `/sessions/${sid}/data`, { token })).statusCode, sid).toBe(200);
      }
    });

    it('cannot create or copy sessions even with admin scope, but can rename their own', async () => {
      const token = await tokenFor(t, 'admin', mainId);
      expect((await call(t.app, 'POST', '/sessions', { token, payload: { display_name: 'bound-new' } })).statusCode).toBe(403);
      expect((await call(t.app, 'POST', '/sessions/main/copy', { token, payload: { new_display_name: 'bound-copy' } })).statusCode).toBe(403);
      expect((await call(t.app, 'PATCH', '/sessions/main', { token, payload: { display_name: 'main-renamed' } })).statusCode).toBe(200);
      // Bound by id: the new name still reaches it.
      expect((await call(t.app, 'GET', '/sessions/main-renamed/data', { token })).statusCode).toBe(200);
      expect((await call(t.app, 'PATCH', `/sessions/${mainId}`, { token, payload: { display_name: 'main' } })).statusCode).toBe(200);
    });

    it('lose everything when their session is deleted (the token goes with it)', async () => {
      await call(t.app, 'POST', '/sessions', { token: tokens.admin, payload: { display_name: 'doomed' } });
      const list = (await call(t.app, 'GET', '/sessions', { token: tokens.admin })).json<SessionList>();
      const doomed = list.sessions.find((s) => s.display_name === 'doomed')!.id;
      const token = await tokenFor(t, 'admin', doomed);
      const deleted = await call(t.app, 'DELETE', '/sessions/doomed', { token });
      expect(deleted.statusCode).toBe(200);
      expect(deleted.json<SessionList>().sessions).toEqual([]);
      expect((await tokensOf(t).list()).some((r) => r.sessionId === doomed)).toBe(false);
    });
  });

  describe('OpenAPI', () => {
    it('declares the bearer scheme and marks protected operations only', async () => {
      const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
      expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
      // Paths are relative to the document's one server, the API prefix.
      expect(doc.servers[0].url).toBe('/api/v1');
      const sessions = doc.paths['/sessions'];
      expect(sessions.get.security).toEqual([{ bearerAuth: [] }]);
      expect(sessions.get.responses['401']).toBeDefined();
      expect(sessions.post.responses['403']).toBeDefined();
      expect(doc.paths['/sessions/{sid}/scenarios/{id}/status'].get.security).toEqual([{ bearerAuth: [] }]);
      expect(doc.paths['/health'].get.security).toBeUndefined();
    });
  });
});

describe('authentication off (auth none, the loopback default)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp('sqlite');
  });
  afterAll(() => t?.close());

  it('serves every route without a token and ignores one that is sent', async () => {
    expect(t.runtime.services.settings.auth).toBe('none');
    expect((await call(t.app, 'GET', '/sessions')).statusCode).toBe(200);
    expect((await call(t.app, 'POST', '/sessions', { payload: { display_name: 'open' } })).statusCode).toBe(201);
    expect((await call(t.app, 'GET', '/sessions', { token: 'whatever' })).statusCode).toBe(200);
    expect((await call(t.app, 'GET', '/health')).json<{ sessions: string[] }>().sessions).toEqual(['main', 'open']);
  });

  it('still describes the bearer scheme in OpenAPI', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
    expect(doc.components.securitySchemes.bearerAuth.scheme).toBe('bearer');
  });
});
