import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findUiBuild } from '../../src/http/ui.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

// Serving the dashboard reads no store: one dialect is enough. The build comes from `npm ci` / `npm run build`.
describe('the dashboard at /ui and <prefix>/ui', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp('sqlite', { prefix: '/custom' });
  });
  afterAll(async () => t?.close());

  it('has a build to serve (web/dist, made by npm ci)', () => {
    expect(findUiBuild()).not.toBeNull();
  });

  it('redirects the bare mount to its trailing-slash form, relatively (proxies keep their path)', async () => {
    for (const [url, location] of [
      ['/ui', 'ui/'],
      ['/custom/ui', 'ui/'],
    ]) {
      const res = await t.app.inject({ url: url! });
      expect(res.statusCode).toBe(302);
      expect(res.headers.location).toBe(location);
    }
  });

  it('serves index.html telling the app where the API is from each mount', async () => {
    const root = await t.app.inject({ url: '/ui/' });
    expect(root.statusCode).toBe(200);
    expect(root.headers['content-type']).toContain('text/html');
    expect(root.headers['cache-control']).toBe('no-cache');
    expect(root.body).toContain('<meta name="scenarist-api" content="/custom" />');
    const prefixed = await t.app.inject({ url: '/custom/ui/' });
    expect(prefixed.body).toContain('<meta name="scenarist-api" content="" />');
  });

  it('serves every script the page names, gzipped when asked, cached for good', async () => {
    const index = (await t.app.inject({ url: '/custom/ui/' })).body;
    const scripts = [...index.matchAll(/src="\.\/(assets\/[^"]+\.js)"/g)].map((m) => m[1]!);
    expect(scripts.length).toBeGreaterThan(0);
    for (const script of scripts) {
      const plain = await t.app.inject({ url: `/custom/ui/${script}` });
      expect(plain.statusCode).toBe(200);
      expect(plain.headers['content-type']).toContain('text/javascript');
      expect(plain.headers['cache-control']).toContain('immutable');
      const zipped = await t.app.inject({ url: `/ui/${script}`, headers: { 'accept-encoding': 'gzip, br' } });
      expect(zipped.headers['content-encoding']).toBe('gzip');
      expect(gunzipSync(zipped.rawPayload).toString()).toBe(plain.body);
    }
  });

  it('sends the page and its files with a strict Content-Security-Policy and a refusal to be framed', async () => {
    const index = (await t.app.inject({ url: '/custom/ui/' })).body;
    const script = index.match(/src="\.\/(assets\/[^"]+\.js)"/)![1]!;
    for (const url of ['/ui/', '/custom/ui/', `/custom/ui/${script}`]) {
      const res = await t.app.inject({ url });
      expect(res.statusCode, url).toBe(200);
      const policy = new Map(
        String(res.headers['content-security-policy'])
          .split(';')
          .map((directive) => directive.trim().split(/\s+/))
          .map(([name, ...values]) => [name!, values]),
      );
      // Scripts from the app's own origin only: no inline script, no eval, nothing from elsewhere.
      expect(policy.get('script-src'), url).toEqual(["'self'"]);
      expect(policy.get('default-src'), url).toEqual(["'self'"]);
      expect(policy.get('connect-src'), url).toEqual(["'self'"]);
      expect(policy.get('object-src'), url).toEqual(["'none'"]);
      expect(policy.get('base-uri'), url).toEqual(["'none'"]);
      expect(policy.get('frame-ancestors'), url).toEqual(["'none'"]);
      expect(res.headers['x-frame-options'], url).toBe('DENY');
      expect(res.headers['x-content-type-options'], url).toBe('nosniff');
    }
  });

  it('answers an unknown file with 404 { detail }', async () => {
    const res = await t.app.inject({ url: '/ui/assets/nope.js' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual(expect.objectContaining({ detail: 'no file assets/nope.js in the dashboard' }));
  });

  it('is left out of the OpenAPI document', async () => {
    const doc = (await t.app.inject({ url: '/openapi.json' })).json() as { paths: Record<string, unknown> };
    expect(Object.keys(doc.paths).some((p) => p.includes('/ui'))).toBe(false);
  });
});
