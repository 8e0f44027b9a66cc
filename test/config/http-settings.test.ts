import { describe, expect, it } from 'vitest';
import { parseFlags, SERVE_FLAGS } from '../../src/cli/flags.js';
import { resolveSettings } from '../../src/config/resolve.js';
import { SettingError } from '../../src/config/setting-error.js';
import { settingsFromEnv } from '../../src/config/sources.js';

describe('HTTP hardening settings', () => {
  it('defaults: loopback host names when bound to loopback, any host otherwise, and the timeouts', () => {
    const s = resolveSettings({});
    expect(s.allowedHosts).toEqual(['localhost', '127.0.0.1', '[::1]']);
    expect(s).toMatchObject({ requestTimeoutMs: 300_000, headersTimeoutMs: 30_000, keepAliveTimeoutMs: 72_000 });
    expect(resolveSettings({ host: '0.0.0.0' }).allowedHosts).toBe('*');
    expect(resolveSettings({ host: '::' }).allowedHosts).toBe('*');
    expect(resolveSettings({ host: '::1' }).allowedHosts).toEqual(['localhost', '127.0.0.1', '[::1]']);
    expect(resolveSettings({ host: '127.0.0.2' }).allowedHosts).toEqual(['localhost', '127.0.0.1', '[::1]', '127.0.0.2']);
  });

  it('parses host lists, wildcards and durations', () => {
    const s = resolveSettings({ allowed_hosts: 'API.example.com, *.internal,[::1]', request_timeout: '2m', headers_timeout: '500ms', keep_alive_timeout: 5 });
    expect(s.allowedHosts).toEqual(['api.example.com', '*.internal', '[::1]']);
    expect(s).toMatchObject({ requestTimeoutMs: 120_000, headersTimeoutMs: 500, keepAliveTimeoutMs: 5_000 });
    expect(resolveSettings({ allowed_hosts: ['a.example', '*'] }).allowedHosts).toBe('*');
    expect(resolveSettings({ request_timeout: '0' }).requestTimeoutMs).toBe(0);
  });

  it('lowers the default headers timeout to a shorter request timeout', () => {
    expect(resolveSettings({ request_timeout: '2s' }).headersTimeoutMs).toBe(2_000);
  });

  it.each([
    [{ allowed_hosts: '' }, 'allowed_hosts'],
    [{ allowed_hosts: 'http://a.example' }, 'allowed_hosts'],
    [{ allowed_hosts: 'a.example:8051' }, 'allowed_hosts'],
    [{ allowed_hosts: [1] }, 'allowed_hosts'],
    [{ request_timeout: 'soon' }, 'request_timeout'],
    [{ request_timeout: '-1s' }, 'request_timeout'],
    [{ headers_timeout: '0' }, 'headers_timeout'],
    [{ keep_alive_timeout: '1h' }, 'keep_alive_timeout'],
    [{ request_timeout: '10s', headers_timeout: '20s' }, 'headers_timeout'],
  ])('rejects %j naming the setting', (raw, name) => {
    expect(() => resolveSettings(raw)).toThrowError(SettingError);
    expect(() => resolveSettings(raw)).toThrowError(new RegExp(`invalid setting ${name}`));
  });

  it('takes them from flags and the environment', () => {
    const flags = parseFlags(['--allowed-host', 'a.example', '--allowed-host', 'b.example', '--request-timeout', '10s', '--headers-timeout=5s', '--keep-alive-timeout', '1m'], SERVE_FLAGS);
    expect(flags.settings).toEqual({ allowed_hosts: ['a.example', 'b.example'], request_timeout: '10s', headers_timeout: '5s', keep_alive_timeout: '1m' });
    expect(settingsFromEnv({ SCENARIST_ALLOWED_HOSTS: 'a.example,b.example', SCENARIST_REQUEST_TIMEOUT: '10s' })).toEqual({
      allowed_hosts: 'a.example,b.example',
      request_timeout: '10s',
    });
  });
});
