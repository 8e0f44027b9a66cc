import { describe, expect, it } from 'vitest';
import { resolveSettings } from '../../src/config/resolve.js';
import { SettingError } from '../../src/config/setting-error.js';
import { settingsFromEnv } from '../../src/config/sources.js';
import { SPEED_LAYERS } from '../../src/config/speed-layers.js';

describe('the run threads and speed layer settings', () => {
  it('gives each run thread a 1 GiB heap, stopped after a minute idle, every speed layer on by default', () => {
    const s = resolveSettings({});
    expect(s.workerHeapLimitMb).toBe(1_024);
    expect(s.workerIdleTimeoutMs).toBe(60_000);
    expect(s.speedLayersOff.size).toBe(0);
  });

  it('reads a heap limit as a size in whole MiB and an idle time as a duration', () => {
    const s = resolveSettings({ worker_heap_limit: '256MiB', worker_idle_timeout: '5s' });
    expect(s.workerHeapLimitMb).toBe(256);
    expect(s.workerIdleTimeoutMs).toBe(5_000);
  });

  it('switches the speed layers named in SCENARIST_BENCH_LAYERS_OFF off, read once with the other settings', () => {
    const s = resolveSettings(settingsFromEnv({ SCENARIST_BENCH_LAYERS_OFF: 'caches, quiet-queue' }));
    expect([...s.speedLayersOff].sort()).toEqual(['caches', 'quiet-queue']);
    expect(resolveSettings({ bench_layers_off: SPEED_LAYERS.join(',') }).speedLayersOff.size).toBe(SPEED_LAYERS.length);
  });

  it('records in the audit trail unless SCENARIST_BENCH_AUDIT_OFF switches it off, read once with the other settings', () => {
    expect(resolveSettings({}).benchAuditOff).toBe(false);
    expect(resolveSettings(settingsFromEnv({ SCENARIST_BENCH_AUDIT_OFF: '1' })).benchAuditOff).toBe(true);
    expect(resolveSettings({ bench_audit_off: 'false' }).benchAuditOff).toBe(false);
  });

  it.each([
    [{ bench_audit_off: 'sometimes' }, 'bench_audit_off', 'expected true or false'],
    [{ worker_heap_limit: '8MiB' }, 'worker_heap_limit', 'at least 16MiB'],
    [{ worker_heap_limit: 'lots' }, 'worker_heap_limit', 'positive size'],
    [{ worker_idle_timeout: '0' }, 'worker_idle_timeout', 'between 1 ms'],
    [{ bench_layers_off: 'caches,statement-cahce' }, 'bench_layers_off', "unknown speed layer 'statement-cahce'"],
  ])('refuses %j naming the setting and what is wrong', (raw, name, reason) => {
    expect(() => resolveSettings(raw)).toThrowError(SettingError);
    expect(() => resolveSettings(raw)).toThrowError(new RegExp(`invalid setting ${name}: .*${reason}`));
  });
});
