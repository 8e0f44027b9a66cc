import type { Where } from './where.js';

/**
 * Readers of the manifest's JSON values: each returns the value with its type when it has the expected
 * shape, else fails naming the path. The manifest is JSON written by hand, so nothing is trusted.
 */

export type JsonObject = Readonly<Record<string, unknown>>;

export function readObject(value: unknown, at: Where): JsonObject {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) at.fail(`must be an object, got ${described(value)}`);
  return value as JsonObject;
}

/**
 * The object here, with only `allowed` members (a misspelt one is most likely a mistake: `paramters`)
 * and every one of `required`.
 */
export function readFields(value: unknown, at: Where, allowed: readonly string[], required: readonly string[] = []): JsonObject {
  const object = readObject(value, at);
  const extra = Object.keys(object).find((key) => !allowed.includes(key));
  if (extra !== undefined) at.key(extra).fail(`unknown field (allowed here: ${allowed.join(', ')})`);
  const missing = required.find((key) => object[key] === undefined);
  if (missing !== undefined) at.key(missing).fail('is required');
  return object;
}

export function readArray(value: unknown, at: Where): readonly unknown[] {
  if (!Array.isArray(value)) at.fail(`must be an array, got ${described(value)}`);
  return value;
}

export function readString(value: unknown, at: Where): string {
  if (typeof value !== 'string' || value === '') at.fail(`must be a non-empty string, got ${described(value)}`);
  return value;
}

export function readOptionalString(value: unknown, at: Where): string | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'string') at.fail(`must be a string, got ${described(value)}`);
  return value;
}

export function readOptionalBoolean(value: unknown, at: Where): boolean | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'boolean') at.fail(`must be true or false, got ${described(value)}`);
  return value;
}

export function readOptionalNumber(value: unknown, at: Where): number | undefined {
  if (value === undefined) return undefined;
  if (typeof value !== 'number' || !Number.isFinite(value)) at.fail(`must be a number, got ${described(value)}`);
  return value;
}

export function readStringArray(value: unknown, at: Where): string[] {
  return readArray(value, at).map((item, i) => readString(item, at.index(i)));
}

/** One of `choices`. */
export function readChoice<C extends string>(value: unknown, at: Where, choices: readonly C[]): C {
  if (!(choices as readonly unknown[]).includes(value)) at.fail(`must be one of ${choices.join(', ')}, got ${described(value)}`);
  return value as C;
}

/** A value as a message shows it: JSON, cut short. */
export function described(value: unknown): string {
  if (value === undefined) return 'nothing';
  const text = JSON.stringify(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
