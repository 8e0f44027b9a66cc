import { describe, expect, it } from 'vitest';
import { routeAccess } from '../../src/auth/route-access.js';
import { scopeAllows } from '../../src/auth/scopes.js';
import { generateToken, hashToken, looksLikeToken } from '../../src/auth/token-secret.js';
import { isLoopbackHost } from '../../src/config/loopback.js';
import { resolveSettings } from '../../src/config/resolve.js';
import { SettingError } from '../../src/config/setting-error.js';

const prefixes = ['', '/api/v1'];

describe('routeAccess', () => {
  it('needs read for GET and HEAD, run for every other method', () => {
    expect(routeAccess({ method: 'GET', url: '/api/v1/sessions/:sid/data' }, prefixes)).toEqual({
      token: 'required',
      scope: 'read',
      boundTokens: 'own-session',
      queryToken: false,
    });
    expect(routeAccess({ method: 'HEAD', url: '/api/v1/sessions/:sid/data' }, prefixes).scope).toBe('read');
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE'] as const) {
      expect(routeAccess({ method, url: '/api/v1/sessions/:sid/x' }, prefixes).scope).toBe('run');
    }
    expect(routeAccess({ method: ['GET', 'POST'], url: '/api/v1/sessions/:sid/x' }, prefixes).scope).toBe('run');
  });

  it('takes what the route declares', () => {
    expect(routeAccess({ method: 'PATCH', url: '/api/v1/sessions/:sid', config: { scope: 'admin' } }, prefixes).scope).toBe('admin');
    expect(routeAccess({ method: 'GET', url: '/api/v1/sessions', config: { boundTokens: 'filtered' } }, prefixes).boundTokens).toBe('filtered');
    expect(routeAccess({ method: 'POST', url: '/api/v1/sessions/:sid/copy', config: { boundTokens: 'refused' } }, prefixes).boundTokens).toBe('refused');
    expect(routeAccess({ method: 'GET', url: '/api/v1/anything', config: { auth: false } }, prefixes).token).toBe('none');
    expect(routeAccess({ method: 'GET', url: '/api/v1/health', config: { auth: 'optional' } }, prefixes).token).toBe('optional');
    expect(routeAccess({ method: 'GET', url: '/api/v1/sessions/:sid/feed', config: { queryToken: true } }, prefixes).queryToken).toBe(true);
  });

  it('refuses session-bound tokens on routes outside any session unless declared', () => {
    expect(routeAccess({ method: 'POST', url: '/api/v1/sessions' }, prefixes).boundTokens).toBe('refused');
    expect(routeAccess({ method: 'GET', url: '/api/v1/admin/stats' }, prefixes).boundTokens).toBe('refused');
    // `:sid` must be a whole segment.
    expect(routeAccess({ method: 'GET', url: '/api/v1/things/:sidecar' }, prefixes).boundTokens).toBe('refused');
  });

  it.each([
    '/health',
    '/api/v1/health',
    '/openapi.json',
    '/api/v1/openapi.json',
    '/docs',
    '/docs/static/*',
    '/api/v1/docs/json',
    '/ui',
    '/ui/*',
    '/api/v1/ui/assets/app.js',
  ])('leaves %s public', (url) => {
    expect(routeAccess({ method: 'GET', url }, prefixes).token).toBe('none');
  });

  it.each(['/healthz', '/api/v1/sessions/:sid/docs', '/api/v2/health', '/uix', '/api/v1/sessions/:sid/events'])('protects %s', (url) => {
    expect(routeAccess({ method: 'GET', url }, prefixes).token).toBe('required');
  });

  it('leaves CORS preflights alone and takes ?access_token= only on event streams', () => {
    expect(routeAccess({ method: 'OPTIONS', url: '*' }, prefixes).token).toBe('none');
    expect(routeAccess({ method: 'GET', url: '/api/v1/sessions/:sid/events' }, prefixes).queryToken).toBe(true);
    expect(routeAccess({ method: 'POST', url: '/api/v1/sessions/:sid/events' }, prefixes).queryToken).toBe(false);
    expect(routeAccess({ method: 'GET', url: '/api/v1/sessions/:sid/scenarios' }, prefixes).queryToken).toBe(false);
  });
});

describe('scopes', () => {
  it('orders read < run < admin', () => {
    expect(scopeAllows('read', 'read')).toBe(true);
    expect(scopeAllows('read', 'run')).toBe(false);
    expect(scopeAllows('run', 'read')).toBe(true);
    expect(scopeAllows('run', 'admin')).toBe(false);
    expect(scopeAllows('admin', 'run')).toBe(true);
  });
});

describe('token secrets', () => {
  it('are sct_ plus 32 random bytes, distinct, and stored as SHA-256 hex', () => {
    const a = generateToken();
    const b = generateToken();
    expect(a).toMatch(/^sct_[A-Za-z0-9_-]{43}$/);
    expect(a).not.toBe(b);
    expect(looksLikeToken(a)).toBe(true);
    expect(looksLikeToken(`${a}x`)).toBe(false);
    expect(looksLikeToken('sct_short')).toBe(false);
    expect(hashToken(a)).toMatch(/^[0-9a-f]{64}$/);
    expect(hashToken(a)).toBe(hashToken(a));
    expect(hashToken(a)).not.toBe(hashToken(b));
  });
});

describe('the auth setting', () => {
  it.each(['127.0.0.1', '127.1.2.3', 'localhost', 'LOCALHOST', '::1', '[::1]', '::ffff:127.0.0.1', '0:0:0:0:0:0:0:1'])('treats %s as loopback', (host) => {
    expect(isLoopbackHost(host)).toBe(true);
  });

  it.each(['0.0.0.0', '::', '10.0.0.5', '192.168.1.1', 'example.com', '128.0.0.1', '::ffff:10.0.0.1'])('treats %s as reachable from elsewhere', (host) => {
    expect(isLoopbackHost(host)).toBe(false);
  });

  it('defaults to none on loopback and to token elsewhere; explicit values win', () => {
    expect(resolveSettings({}).auth).toBe('none');
    expect(resolveSettings({ host: 'localhost' }).auth).toBe('none');
    expect(resolveSettings({ host: '0.0.0.0' }).auth).toBe('token');
    expect(resolveSettings({ host: '0.0.0.0', auth: 'none' }).auth).toBe('none');
    expect(resolveSettings({ auth: 'token' }).auth).toBe('token');
    expect(resolveSettings({ auth: ' TOKEN ' }).auth).toBe('token');
  });

  it.each([['basic'], [''], [true], [1]])('rejects %j naming the setting', (auth) => {
    expect(() => resolveSettings({ auth })).toThrow(SettingError);
    expect(() => resolveSettings({ auth })).toThrow(/invalid setting auth/);
  });
});
