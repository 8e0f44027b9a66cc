import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestApp, type TestApp } from '../support/test-app.js';

describe('global routes and HTTP behaviour', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp('sqlite', { title: 'Test Title', prefix: '/svc' });
  });
  afterAll(() => t?.close());

  it('answers /health under the prefix and at the root with the title and session names', async () => {
    for (const url of ['/svc/health', '/health']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.json()).toEqual({ status: 'ok', title: 'Test Title', sessions: ['main'], auth: 'none' });
    }
  });

  it('serves the routes only under the configured prefix', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/svc/sessions' })).statusCode).toBe(200);
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/sessions' });
    expect(res.statusCode).toBe(404);
    expect(typeof res.json().detail).toBe('string');
  });

  it('serves an OpenAPI 3 document listing every route with its responses', async () => {
    for (const url of ['/openapi.json', '/svc/openapi.json']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(200);
      const doc = res.json();
      expect(doc.openapi).toMatch(/^3\./);
      // Paths are relative to the one server, the prefix; the root /health alias is not listed.
      expect(doc.servers).toEqual([expect.objectContaining({ url: '/svc' })]);
      expect(Object.keys(doc.paths)).toEqual(
        expect.arrayContaining([
          '/health',
          '/sessions',
          '/sessions/{sid}',
          '/sessions/{sid}/copy',
          '/sessions/{sid}/algorithms',
          '/sessions/{sid}/algorithms/{name}/parameters',
          '/sessions/{sid}/kpis',
          '/sessions/{sid}/data',
          '/sessions/{sid}/data/{key}',
          '/sessions/{sid}/data/from-json',
          '/sessions/{sid}/etl',
        ]),
      );
      expect(doc.paths['/sessions'].post.responses).toHaveProperty('409');
      expect(doc.paths['/sessions'].post.responses).toHaveProperty('422');
    }
  });

  it('serves the Swagger UI from local assets at /docs', async () => {
    for (const url of ['/docs/', '/svc/docs/']) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.body).toContain('swagger');
      expect(res.body).not.toMatch(/https?:\/\/(cdn|unpkg)/);
    }
    const asset = await t.app.inject({ method: 'GET', url: '/docs/static/swagger-ui-bundle.js' });
    expect(asset.statusCode).toBe(200);
  });

  it('answers an unknown route and an unsupported method with 404 and a detail', async () => {
    for (const [method, url] of [
      ['GET', '/nowhere'],
      ['PUT', '/sessions'],
    ] as const) {
      const res = await t.app.inject({ method, url });
      expect(res.statusCode).toBe(404);
      expect(typeof res.json().detail).toBe('string');
    }
  });

  it('answers bad percent-encoding with 400 and a detail', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/sessions/%E0%A4%A/data' });
    expect(res.statusCode).toBe(400);
    expect(typeof res.json().detail).toBe('string');
  });

  it('answers a JSON body over the body limit with 413 and a detail', async () => {
    const small = await startTestApp('sqlite', { body_limit: '1KiB' });
    try {
      const res = await small.app.inject({ method: 'POST', url: '/api/v1/sessions', payload: { display_name: 'x'.repeat(5000) } });
      expect(res.statusCode).toBe(413);
      expect(typeof res.json().detail).toBe('string');
    } finally {
      await small.close();
    }
  });
});

describe('settings that shape HTTP behaviour', () => {
  it('returns 403 for session create and copy when creation is disabled, and allows the rest', async () => {
    const t = await startTestApp('sqlite', { allow_session_create: false });
    try {
      const create = await t.app.inject({ method: 'POST', url: '/api/v1/sessions', payload: { display_name: 'x' } });
      expect(create.statusCode).toBe(403);
      expect(typeof create.json().detail).toBe('string');
      expect((await t.app.inject({ method: 'POST', url: '/api/v1/sessions', payload: {} })).statusCode).toBe(403);
      const copy = await t.app.inject({ method: 'POST', url: '/api/v1/sessions/main/copy', payload: { new_display_name: 'y' } });
      expect(copy.statusCode).toBe(403);
      const rename = await t.app.inject({ method: 'PATCH', url: '/api/v1/sessions/main', payload: { display_name: 'renamed' } });
      expect(rename.statusCode).toBe(200);
    } finally {
      await t.close();
    }
  });

  it('answers CORS preflights only for configured origins', async () => {
    const t = await startTestApp('sqlite', { cors_origins: ['https://app.example.com'] });
    try {
      const ok = await t.app.inject({
        method: 'OPTIONS',
        url: '/api/v1/sessions',
        headers: { origin: 'https://app.example.com', 'access-control-request-method': 'POST' },
      });
      expect(ok.headers['access-control-allow-origin']).toBe('https://app.example.com');
      const other = await t.app.inject({ method: 'GET', url: '/api/v1/sessions', headers: { origin: 'https://evil.example' } });
      expect(other.headers['access-control-allow-origin']).toBeUndefined();
    } finally {
      await t.close();
    }
    const plain = await startTestApp('sqlite');
    try {
      const res = await plain.app.inject({ method: 'GET', url: '/api/v1/sessions', headers: { origin: 'https://app.example.com' } });
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
    } finally {
      await plain.close();
    }
  });
});
