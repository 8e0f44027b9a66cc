import { SettingError } from './setting-error.js';

/** Converters from a raw setting value (a string from flags/env, or JSON from a file) to its type. */

export function parseBoolean(name: string, raw: unknown): boolean {
  if (typeof raw === 'boolean') return raw;
  if (typeof raw === 'string') {
    const v = raw.trim().toLowerCase();
    if (['true', '1', 'yes', 'on'].includes(v)) return true;
    if (['false', '0', 'no', 'off'].includes(v)) return false;
  }
  throw new SettingError(name, `expected true or false, got ${show(raw)}`);
}

export function parseInteger(name: string, raw: unknown, min: number, max: number): number {
  const n = typeof raw === 'string' && /^\s*-?\d+\s*$/.test(raw) ? Number(raw) : raw;
  if (typeof n !== 'number' || !Number.isInteger(n)) {
    throw new SettingError(name, `expected an integer, got ${show(raw)}`);
  }
  if (n < min || n > max) throw new SettingError(name, `must be between ${min} and ${max}, got ${n}`);
  return n;
}

export function parseString(name: string, raw: unknown): string {
  if (typeof raw !== 'string') throw new SettingError(name, `expected a string, got ${show(raw)}`);
  return raw;
}

/** A list: a JSON array of strings, or a comma-separated string. */
export function parseList(name: string, raw: unknown): string[] {
  const items = typeof raw === 'string' ? raw.split(',') : raw;
  if (!Array.isArray(items) || !items.every((i) => typeof i === 'string')) {
    throw new SettingError(name, `expected a list of strings, got ${show(raw)}`);
  }
  return items.map((i: string) => i.trim());
}

export function parseJsonObject(name: string, raw: unknown): Record<string, unknown> {
  let value = raw;
  if (typeof raw === 'string') {
    try {
      value = JSON.parse(raw);
    } catch {
      throw new SettingError(name, `expected a JSON object, got ${show(raw)}`);
    }
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new SettingError(name, `expected a JSON object, got ${show(raw)}`);
  }
  return value as Record<string, unknown>;
}

/** Sizes in bytes, with an optional unit: `1048576`, `64MiB`, `256 MB`, `1g`. */
export function parseSize(name: string, raw: unknown): number {
  if (typeof raw === 'number' && Number.isInteger(raw) && raw > 0) return raw;
  const match = typeof raw === 'string' ? /^\s*(\d+)\s*([kmg]?)(i?b)?\s*$/i.exec(raw) : null;
  if (!match) throw new SettingError(name, `expected a positive size such as 64MiB, got ${show(raw)}`);
  const unit = { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 }[(match[2] ?? '').toLowerCase() as '' | 'k' | 'm' | 'g'];
  const bytes = Number(match[1]) * unit;
  if (bytes <= 0) throw new SettingError(name, `must be positive, got ${show(raw)}`);
  return bytes;
}

/** The longest duration a Node timer can wait (about 24.8 days). */
export const MAX_DURATION_MS = 2_147_483_647;

/** Durations in milliseconds, with an optional unit: `3600000`, `500ms`, `90s`, `30m`, `1h`. */
export function parseDuration(name: string, raw: unknown): number {
  const match = typeof raw === 'number' ? [String(raw), String(raw), ''] : typeof raw === 'string' ? /^\s*(\d+)\s*(ms|s|m|min|h)?\s*$/i.exec(raw) : null;
  if (!match || !/^\d+$/.test(match[1] ?? '')) throw new SettingError(name, `expected a duration such as 1h, 30m, 90s or 500ms, got ${show(raw)}`);
  const unit = { '': 1, ms: 1, s: 1_000, m: 60_000, min: 60_000, h: 3_600_000 }[(match[2] ?? '').toLowerCase() as '' | 'ms' | 's' | 'm' | 'min' | 'h'];
  const ms = Number(match[1]) * unit;
  if (ms <= 0 || ms > MAX_DURATION_MS) throw new SettingError(name, `must be between 1 ms and 24 days, got ${show(raw)}`);
  return ms;
}

/** Longest retention: a century, far beyond any audit policy and well inside a JS date. */
const MAX_RETENTION_MS = 36_500 * 86_400_000;

/** A long span in milliseconds: days by default (`365`), or with a unit: `90d`, `12h`, `30m`, `45s`. */
export function parseDays(name: string, raw: unknown): number {
  const match = typeof raw === 'number' ? [String(raw), String(raw), 'd'] : typeof raw === 'string' ? /^\s*(\d+)\s*(d|h|m|s)?\s*$/i.exec(raw) : null;
  if (!match || !/^\d+$/.test(match[1] ?? '')) throw new SettingError(name, `expected a number of days such as 365, or 90d, 12h, 30m, got ${show(raw)}`);
  const unit = { d: 86_400_000, h: 3_600_000, m: 60_000, s: 1_000 }[(match[2] ?? 'd').toLowerCase() as 'd' | 'h' | 'm' | 's'];
  const ms = Number(match[1]) * unit;
  if (ms <= 0 || ms > MAX_RETENTION_MS) throw new SettingError(name, `must be between 1 s and 36500 days, got ${show(raw)}`);
  return ms;
}

/** HTTP timeouts in milliseconds: `30` or `30s` (seconds), `500ms`, `5m`; 0 (off) only where `allowZero`. */
export function parseTimeout(name: string, raw: unknown, allowZero = false): number {
  const match =
    typeof raw === 'number' ? (Number.isFinite(raw) && raw >= 0 ? ['', String(raw), 's'] : null)
    : typeof raw === 'string' ? /^\s*(\d+(?:\.\d+)?)\s*(ms|s|m)?\s*$/i.exec(raw) : null;
  if (!match) throw new SettingError(name, `expected a duration such as 30s, 500ms or 5m, got ${show(raw)}`);
  const factor = { ms: 1, s: 1000, m: 60_000 }[(match[2] ?? 's').toLowerCase() as 'ms' | 's' | 'm'];
  const ms = Math.round(Number(match[1]) * factor);
  if (ms === 0 && !allowZero) throw new SettingError(name, `must be longer than 0, got ${show(raw)}`);
  if (ms > 2_147_483_647) throw new SettingError(name, `must be at most 24 days, got ${show(raw)}`);
  return ms;
}

function show(raw: unknown): string {
  const text = JSON.stringify(raw) ?? String(raw);
  return text.length > 80 ? `${text.slice(0, 77)}...` : text;
}
