import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveSettings } from '../../src/config/resolve.js';
import { SettingError } from '../../src/config/setting-error.js';
import { settingsFromEnv, settingsFromFile } from '../../src/config/sources.js';
import { parseFlags, SERVE_FLAGS } from '../../src/cli/flags.js';

describe('resolveSettings', () => {
  it('fills the documented defaults', () => {
    const s = resolveSettings({});
    expect(s).toMatchObject({
      host: '127.0.0.1',
      port: 8051,
      prefix: '/api/v1',
      corsOrigins: [],
      allowSessionCreate: true,
      forwardedAllowIps: undefined,
      title: 'Scenarist',
      autocreate: false,
      autorun: false,
      defaultAlgo: undefined,
    });
    expect(s.databaseUrl).toMatch(/^sqlite:.*data\/scenarist\.db$/);
    expect(s.workers).toBeGreaterThan(0);
    expect(Object.isFrozen(s)).toBe(true);
  });

  it('lets later sources win: defaults < file < env < flags', () => {
    const s = resolveSettings({ port: 1000, title: 'file' }, { port: '2000' }, { port: '3000' });
    expect(s.port).toBe(3000);
    expect(s.title).toBe('file');
  });

  it.each([
    [{ port: '0' }, 'port'],
    [{ port: '70000' }, 'port'],
    [{ port: 'abc' }, 'port'],
    [{ prefix: 'api' }, 'prefix'],
    [{ cors_origins: [''] }, 'cors_origins'],
    [{ cors_origins: 'https://a.example,' }, 'cors_origins'],
    [{ allow_session_create: 'maybe' }, 'allow_session_create'],
    [{ autocreate: 'true' }, 'autocreate'],
    [{ forwarded_allow_ips: 'not-an-ip' }, 'forwarded_allow_ips'],
    [{ default_algo_params: '[1]' }, 'default_algo_params'],
    [{ workers: '-1' }, 'workers'],
    [{ database_url: 'mysql://x' }, 'database_url'],
    [{ upload_limit: 'lots' }, 'upload_limit'],
    [{ upload_max_field: '0' }, 'upload_max_field'],
    [{ upload_time_limit: 'soon' }, 'upload_time_limit'],
    [{ upload_queue_wait: '-1s' }, 'upload_queue_wait'],
    [{ data_thread_idle: '0' }, 'data_thread_idle'],
    [{ data_thread_heap: '32MiB' }, 'data_thread_heap'],
    [{ data_thread_heap: 'big' }, 'data_thread_heap'],
    [{ log_level: 'loud' }, 'log_level'],
  ])('rejects %j naming the setting', (raw, name) => {
    expect(() => resolveSettings(raw)).toThrowError(SettingError);
    expect(() => resolveSettings(raw)).toThrowError(new RegExp(`invalid setting ${name}`));
  });

  it('parses lists, booleans, sizes and trusted proxies', () => {
    const s = resolveSettings({
      cors_origins: 'https://a.example, http://localhost:3000',
      allow_session_create: 'false',
      forwarded_allow_ips: '10.0.0.1,::1',
      upload_limit: '2MiB',
      autocreate: 'yes',
      default_algo: 'Instant',
    });
    expect(s.corsOrigins).toEqual(['https://a.example', 'http://localhost:3000']);
    expect(s.allowSessionCreate).toBe(false);
    expect(s.forwardedAllowIps).toEqual(['10.0.0.1', '::1']);
    expect(s.uploadLimitBytes).toBe(2 * 1024 * 1024);
    expect(resolveSettings({ forwarded_allow_ips: '*' }).forwardedAllowIps).toBe('*');
  });

  it('bounds uploads by default: 4 MiB per field, 120 s of work, 1 s of waiting for a thread', () => {
    const defaults = resolveSettings({});
    expect([defaults.uploadMaxFieldBytes, defaults.uploadTimeLimitMs, defaults.uploadQueueWaitMs]).toEqual([4 * 1024 * 1024, 120_000, 10_000]);
    const given = resolveSettings({ upload_max_field: '1MiB', upload_time_limit: '30s', upload_queue_wait: '0' });
    expect([given.uploadMaxFieldBytes, given.uploadTimeLimitMs, given.uploadQueueWaitMs]).toEqual([1024 * 1024, 30_000, 0]);
  });

  it('lets upload and view threads idle 5 s with 1536 MiB of heap by default, or as set', () => {
    const defaults = resolveSettings({});
    expect([defaults.dataThreadIdleMs, defaults.dataThreadHeapMb]).toEqual([5_000, 1536]);
    const given = resolveSettings({ data_thread_idle: '500ms', data_thread_heap: '1GiB' });
    expect([given.dataThreadIdleMs, given.dataThreadHeapMb]).toEqual([500, 1024]);
  });
});

describe('setting sources', () => {
  it('reads SCENARIST_* environment variables', () => {
    expect(settingsFromEnv({ SCENARIST_PORT: '9000', SCENARIST_CORS_ORIGINS: 'https://a.example', OTHER: 'x' })).toEqual({
      port: '9000',
      cors_origins: 'https://a.example',
    });
  });

  it('reads a JSON config file and rejects unknown keys and bad JSON', () => {
    const dir = mkdtempSync(join(tmpdir(), 'scenarist-config-'));
    const good = join(dir, 'good.json');
    writeFileSync(good, JSON.stringify({ port: 9100, cors_origins: ['https://a.example'] }));
    expect(resolveSettings(settingsFromFile(good)).port).toBe(9100);
    const unknown = join(dir, 'unknown.json');
    writeFileSync(unknown, JSON.stringify({ prot: 1 }));
    expect(() => settingsFromFile(unknown)).toThrowError(/prot/);
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, '{');
    expect(() => settingsFromFile(bad)).toThrowError(SettingError);
    expect(() => settingsFromFile(join(dir, 'missing.json'))).toThrowError(SettingError);
  });

  it('parses flags with values, repeatable origins and bare booleans', () => {
    const flags = parseFlags(
      ['--port', '9000', '--cors-origin', 'https://a.example', '--cors-origin=https://b.example', '--autorun', '--allow-session-create', 'false', '--data-dir', './x'],
      SERVE_FLAGS,
    );
    expect(flags.settings).toEqual({
      port: '9000',
      cors_origins: ['https://a.example', 'https://b.example'],
      autorun: 'true',
      allow_session_create: 'false',
      data_dir: './x',
    });
    expect(() => parseFlags(['--bogus', '1'], SERVE_FLAGS)).toThrowError(/--bogus/);
    expect(() => parseFlags(['--port'], SERVE_FLAGS)).toThrowError(/needs a value/);
  });
});
