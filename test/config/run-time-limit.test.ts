import { describe, expect, it } from 'vitest';
import { resolveSettings } from '../../src/config/resolve.js';
import { SettingError } from '../../src/config/setting-error.js';

describe('the run_time_limit setting', () => {
  it('defaults to one hour', () => {
    expect(resolveSettings({}).runTimeLimitMs).toBe(3_600_000);
  });

  it.each([
    ['500ms', 500],
    ['90s', 90_000],
    ['30m', 1_800_000],
    ['30min', 1_800_000],
    ['2h', 7_200_000],
    ['1500', 1_500],
    [2_000, 2_000],
  ])('reads %j as %i ms', (raw, ms) => {
    expect(resolveSettings({ run_time_limit: raw }).runTimeLimitMs).toBe(ms);
  });

  it.each(['0', '-1s', '1.5h', 'soon', '', '25d', '1000h', true, 1.5])('refuses %j, naming the setting', (raw) => {
    expect(() => resolveSettings({ run_time_limit: raw })).toThrow(SettingError);
    expect(() => resolveSettings({ run_time_limit: raw })).toThrow(/run_time_limit/);
  });
});
