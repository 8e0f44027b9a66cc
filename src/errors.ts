/**
 * Every failure the service reports on purpose, as a code. Domain code throws `ScenaristError`s with a
 * code; only the HTTP layer (`http/errors.ts`) knows which status code each one maps to.
 */
export const ERROR_CODES = [
  'BAD_INPUT', // malformed or unusable input: 400
  'INVALID_PARAMETER', // a parameter value fails its declaration: 400
  'FORBIDDEN', // disabled by a setting, or beyond the token's scope or session: 403
  'NOT_FOUND', // unknown session, scenario, dataset or algorithm: 404
  'CONFLICT', // name taken, or a state that forbids the operation: 409
  'TOO_LARGE', // a body or upload over its limit: 413
  'INVALID_REQUEST', // request body fails its schema: 422
  'UNAUTHORIZED', // no token, or an unknown or revoked one: 401
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

export interface FieldError {
  readonly path: string;
  readonly message: string;
}

export class ScenaristError extends Error {
  override readonly name = 'ScenaristError';
  constructor(
    readonly code: ErrorCode,
    message: string,
    /** For INVALID_REQUEST: each offending field. */
    readonly fields: readonly FieldError[] = [],
  ) {
    super(message);
  }
}

export const badInput = (message: string) => new ScenaristError('BAD_INPUT', message);
export const notFound = (message: string) => new ScenaristError('NOT_FOUND', message);
export const conflict = (message: string) => new ScenaristError('CONFLICT', message);
export const forbidden = (message: string) => new ScenaristError('FORBIDDEN', message);
export const unauthorized = (message: string) => new ScenaristError('UNAUTHORIZED', message);
export const invalidRequest = (message: string, fields: readonly FieldError[] = []) =>
  new ScenaristError('INVALID_REQUEST', message, fields);

/** Turns anything thrown (an Error, a string, undefined, ...) into an Error with a useful message. */
export function coerceError(thrown: unknown): Error {
  if (thrown instanceof Error) return thrown;
  if (typeof thrown === 'string') return new Error(thrown);
  if (thrown === undefined || thrown === null) return new Error(`threw ${String(thrown)}`);
  try {
    return new Error(`threw ${JSON.stringify(thrown)}`);
  } catch {
    return new Error(`threw ${Object.prototype.toString.call(thrown)}`);
  }
}
