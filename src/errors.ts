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
  'UNSUPPORTED_MEDIA_TYPE', // a body in a content type the route does not take: 415
  'REQUEST_TIMEOUT', // the request did not arrive within request_timeout: 408
  'HEADERS_TOO_LARGE', // request line and headers over Node's header size limit: 431
  'INTERNAL_ERROR', // a failure of the service itself, never of the request: 500
  'VIEW_ERROR', // a domain view threw or returned an unusable spec: 422
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

/**
 * What each code means, for clients and the OpenAPI document (`ErrorCode` schema). A code without an
 * entry here is still valid; it is documented by its name alone.
 */
export const ERROR_CODE_DESCRIPTIONS: Partial<Record<ErrorCode, string>> = {
  BAD_INPUT: 'malformed or unusable input (bad query value, unreadable body, malformed URL)',
  INVALID_PARAMETER: 'an algorithm or data parameter value fails its declaration',
  FORBIDDEN: 'the operation is disabled by a setting',
  NOT_FOUND: 'unknown session, scenario, dataset, algorithm or route',
  CONFLICT: 'a name is taken, or the current state forbids the operation',
  TOO_LARGE: 'a body or an upload is over its limit',
  INVALID_REQUEST: 'the request fails its schema; `errors` lists each offending field',
  UNSUPPORTED_MEDIA_TYPE: 'the body is of a content type the route does not take',
  INTERNAL_ERROR: 'the service failed; the request may be retried',
  VIEW_ERROR: "a domain view threw or returned an unusable spec; `detail` names the view and the error",
};

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
