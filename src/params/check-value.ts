import { copied } from './copy.js';
import { ParameterError, shown } from './errors.js';
import type { ParamDecl } from './kinds.js';
import { compareInstants, isTimeOfDay, parseInstant } from './temporal.js';

/**
 * Checks one present (non-null) value against its declaration and returns the value to hand on, a
 * fresh copy for arrays so the result never aliases the request body or a declared default.
 */
export function checkValue(name: string, decl: ParamDecl, value: unknown): unknown {
  const problem = valueProblem(decl, value);
  if (problem !== undefined) throw ParameterError.invalid(name, problem);
  return copied(value);
}

/**
 * What is wrong with a present value, e.g. `must be >= 1, got 0`, or undefined when it is fine.
 * Nothing is coerced: `"1"` is not an integer and `"false"` is not a boolean, so a client bug shows
 * up as a 400 naming the parameter instead of as a silently different run.
 */
export function valueProblem(decl: ParamDecl, value: unknown): string | undefined {
  const problem = kindProblem(decl, value);
  return problem === undefined ? undefined : `${problem}, got ${shown(value)}`;
}

function kindProblem(decl: ParamDecl, value: unknown): string | undefined {
  switch (decl.kind) {
    case 'integer':
      if (typeof value !== 'number' || !Number.isInteger(value)) return 'must be an integer';
      // Beyond 2^53 a JSON number has already been rounded, so the value is not what the client sent.
      if (!Number.isSafeInteger(value)) return `must be between ${Number.MIN_SAFE_INTEGER} and ${Number.MAX_SAFE_INTEGER}`;
      return boundsProblem(decl, value);
    case 'float':
      if (typeof value !== 'number' || !Number.isFinite(value)) return 'must be a finite number';
      return boundsProblem(decl, value);
    case 'string':
      return typeof value === 'string' ? undefined : 'must be a string';
    case 'boolean':
      return typeof value === 'boolean' ? undefined : 'must be true or false';
    case 'enum':
      return typeof value === 'string' && decl.choices.includes(value) ? undefined : `must be one of ${choiceList(decl.choices)}`;
    case 'multi_enum':
      return multiEnumProblem(decl.choices, value);
    case 'time':
      return typeof value === 'string' && isTimeOfDay(value) ? undefined : 'must be a time of day HH:MM or HH:MM:SS (24-hour clock)';
    case 'interval':
      return intervalProblem(value);
    default:
      // Unreachable for checked declarations: checkDecls rejects unknown kinds at load.
      return `has an unknown kind ${shown((decl as { kind: unknown }).kind)}`;
  }
}

function boundsProblem(decl: { readonly min?: number; readonly max?: number }, value: number): string | undefined {
  if (decl.min !== undefined && value < decl.min) return `must be >= ${decl.min}`;
  if (decl.max !== undefined && value > decl.max) return `must be <= ${decl.max}`;
  return undefined;
}

function choiceList(choices: readonly string[]): string {
  return choices.map((c) => JSON.stringify(c)).join(', ');
}

function multiEnumProblem(choices: readonly string[], value: unknown): string | undefined {
  if (!Array.isArray(value)) return `must be an array of distinct values among ${choiceList(choices)}`;
  const seen = new Set<unknown>();
  for (const item of value as unknown[]) {
    if (typeof item !== 'string' || !choices.includes(item)) return `${shown(item)} is not one of ${choiceList(choices)}`;
    if (seen.has(item)) return `${shown(item)} appears more than once`;
    seen.add(item);
  }
  return undefined;
}

const INTERVAL_FORMS = 'ISO 8601 dates (YYYY-MM-DD) or date-times (YYYY-MM-DDTHH:MM[:SS[.fff]][Z|±HH:MM])';
const INSTANT_FORM = 'a valid ISO 8601 date or date-time';

function intervalProblem(value: unknown): string | undefined {
  if (!Array.isArray(value) || value.length !== 2) return `must be a two-element array [start, end] of ${INTERVAL_FORMS}`;
  const [start, end] = value as [unknown, unknown];
  const startAt = typeof start === 'string' ? parseInstant(start) : undefined;
  if (!startAt) return `start ${shown(start)} is not ${INSTANT_FORM}`;
  const endAt = typeof end === 'string' ? parseInstant(end) : undefined;
  if (!endAt) return `end ${shown(end)} is not ${INSTANT_FORM}`;
  return compareInstants(startAt, endAt) > 0 ? 'start must not be after end' : undefined;
}
