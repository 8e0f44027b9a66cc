import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveSettings } from '../../src/config/resolve.js';
import { buildApp } from '../../src/http/app.js';
import { assemble, type Runtime } from '../../src/runtime/assemble.js';
import { createTestDatabase, type TestDatabase } from '../support/dialects.js';
import { issueToken } from '../../src/auth/issue-token.js';
import { TokensRepository } from '../../src/store/tokens-repository.js';

/**
 * Routes registered after the app is built (as other parts of the service add theirs) are guarded
 * without being listed anywhere; an event stream also takes `?access_token=`.
 */
describe('routes added after the guard', () => {
  let db: TestDatabase;
  let runtime: Runtime;
  let app: FastifyInstance;
  let token: string;
  let mainId: string;
  beforeAll(async () => {
    db = await createTestDatabase('sqlite');
    runtime = await assemble(resolveSettings({ data_dir: db.dir, database_url: db.url, workers: 1, auth: 'token' }), pino({ level: 'silent' }));
    app = await buildApp(runtime.services);
    const seen = (request: { url: string; raw: { url?: string } }) => ({ url: request.url, raw: request.raw.url });
    // Every documented route declares the codes its own work answers (src/http/route-errors.ts): none here.
    const declared = { config: { errors: [] } };
    app.get('/api/v1/sessions/:sid/later/events', declared, async (request) => seen(request));
    app.post('/api/v1/sessions/:sid/later-hooks', declared, async (request) => seen(request));
    app.get('/api/v1/sessions/:sid/later-compare', declared, async (request) => seen(request));
    await app.ready();
    mainId = (await runtime.services.sessions.list()).default;
    token = (await issueToken(new TokensRepository(runtime.services.store.db), { scope: 'read', sessionId: mainId })).token;
  });
  afterAll(async () => {
    await app?.close();
    await runtime?.close();
    await db?.drop();
  });

  it('refuses them without a token', async () => {
    for (const [method, url] of [
      ['GET', '/api/v1/sessions/main/later/events'],
      ['POST', '/api/v1/sessions/main/later-hooks'],
      ['GET', '/api/v1/sessions/main/later-compare'],
    ] as const) {
      expect((await app.inject({ method, url })).statusCode, url).toBe(401);
    }
  });

  it('applies scope and session binding to them', async () => {
    const headers = { authorization: `Bearer ${token}` };
    expect((await app.inject({ method: 'GET', url: '/api/v1/sessions/main/later-compare', headers })).statusCode).toBe(200);
    expect((await app.inject({ method: 'POST', url: '/api/v1/sessions/main/later-hooks', headers })).statusCode).toBe(403);
    expect((await app.inject({ method: 'GET', url: '/api/v1/sessions/other/later-compare', headers })).statusCode).toBe(403);
  });

  it('takes ?access_token= on the event stream only, and keeps it out of the logged URL', async () => {
    const res = await app.inject({ method: 'GET', url: `/api/v1/sessions/main/later/events?since=3&access_token=${token}` });
    expect(res.statusCode).toBe(200);
    const seen = res.json<{ url: string; raw: string }>();
    expect(seen.url).toBe('/api/v1/sessions/main/later/events?since=3&access_token=[redacted]');
    expect(res.body).not.toContain(token);
    expect((await app.inject({ method: 'GET', url: `/api/v1/sessions/main/later-compare?access_token=${token}` })).statusCode).toBe(401);
    expect((await app.inject({ method: 'GET', url: `/api/v1/sessions/${mainId}/later/events?access_token=sct_nope` })).statusCode).toBe(401);
  });
});
