import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { errors } from '../error-factories.js';
import { ERROR_CODES, ERROR_REGISTRY, ScenaristError, type ErrorCode, type FieldError } from '../errors.js';
import { NAME_PATTERN, nameProblem } from '../datasets/names.js';
import { ParameterError } from '../params/errors.js';
import { isStoreUnavailable } from '../store/unavailable.js';
import { routeErrorCodes } from './route-errors.js';

/** How long a client is asked to wait (`Retry-After`, seconds) when the database does not answer. */
export const STORE_RETRY_AFTER_SECONDS = 5;

/** The HTTP status each error code maps to, from the registry (the one mapper of codes to statuses). */
export const STATUS_BY_CODE: Readonly<Record<ErrorCode, number>> = Object.fromEntries(
  ERROR_CODES.map((code) => [code, ERROR_REGISTRY[code].status]),
) as Record<ErrorCode, number>;

/** The generic code of a status that carries no code of its own (Fastify's other 4xx errors). */
const GENERIC_CODE_OF_STATUS: Readonly<Record<number, ErrorCode>> = {
  400: 'BAD_INPUT',
  401: 'TOKEN_INVALID',
  403: 'FORBIDDEN',
  404: 'NOT_FOUND',
  408: 'REQUEST_TIMEOUT',
  409: 'CONFLICT',
  413: 'BODY_TOO_LARGE',
  415: 'UNSUPPORTED_MEDIA_TYPE',
  422: 'INVALID_REQUEST',
  431: 'HEADERS_TOO_LARGE',
};

/** The specific code of Fastify's parser-level errors. */
const CODE_OF_FASTIFY_ERROR: Readonly<Record<string, ErrorCode>> = {
  FST_ERR_CTP_EMPTY_JSON_BODY: 'BODY_EMPTY',
  FST_ERR_CTP_INVALID_JSON_BODY: 'BODY_MALFORMED',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'UNSUPPORTED_MEDIA_TYPE',
  FST_ERR_CTP_BODY_TOO_LARGE: 'BODY_TOO_LARGE',
  FST_REQ_FILE_TOO_LARGE: 'BODY_TOO_LARGE',
  FST_ERR_BAD_URL: 'URL_MALFORMED',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'HTTP_MALFORMED',
};

function codeOf(err: Partial<FastifyError>, status: number): ErrorCode {
  const specific = err.code === undefined ? undefined : CODE_OF_FASTIFY_ERROR[err.code];
  if (specific) return specific;
  // Fastify's JSON parser reports a syntax error as a plain 400 SyntaxError.
  if (status === 400 && err.name === 'SyntaxError') return 'BODY_MALFORMED';
  return GENERIC_CODE_OF_STATUS[status] ?? (status >= 500 ? 'INTERNAL_ERROR' : 'BAD_INPUT');
}

/** Every error body on the wire: a message for people and a code for programs (+ `errors` listing each bad field). */
export interface ErrorBodyView {
  detail: string;
  code: ErrorCode;
  errors?: readonly FieldError[];
  /** How many entries `errors` would have had, when it lists only the first `MAX_LISTED_ERRORS`. */
  errors_total?: number;
}

export const errorBody = (code: ErrorCode, detail: string): ErrorBodyView => ({ detail, code });

/**
 * How many field errors an answer lists. 100,000 bad edits (or parameters, or combinations) are each
 * found, but listing them all would answer megabytes nobody reads; the first ones and the count are
 * what a client acts on.
 */
export const MAX_LISTED_ERRORS = 100;

/** `body` with its `errors`: the first `MAX_LISTED_ERRORS`, and `errors_total` when there were more. */
function withErrors(body: ErrorBodyView, list: readonly FieldError[]): ErrorBodyView {
  return list.length > MAX_LISTED_ERRORS ? { ...body, errors: list.slice(0, MAX_LISTED_ERRORS), errors_total: list.length } : { ...body, errors: list };
}

interface ErrorPayload {
  status: number;
  body: ErrorBodyView;
}

/** An error of ours as its answer: the status of its code and its `{ detail, code }` body. */
function payloadOf(err: ScenaristError): ErrorPayload {
  const status = STATUS_BY_CODE[err.code];
  const body = { ...errorBody(err.code, err.message), ...err.extra };
  // A 422, and any error that lists what is wrong field by field (an experiment's invalid combinations), carry `errors`.
  return { status, body: status === 422 || err.fields.length > 0 ? withErrors(body, err.fields) : body };
}

/** Maps anything a route throws to a status and a `{ detail, code }` body; unknown errors are 500. */
export function toErrorPayload(err: unknown): ErrorPayload | undefined {
  if (err instanceof ScenaristError) return payloadOf(err);
  if (err instanceof ParameterError) return { status: 400, body: withErrors(errorBody('PARAMETER_INVALID', err.message), err.errors) };
  const fastifyError = err as Partial<FastifyError> & { validation?: unknown; validationContext?: string };
  if (Array.isArray(fastifyError.validation)) {
    const fields = fastifyError.validation.map((v: { instancePath?: string; message?: string; params?: Record<string, unknown>; data?: unknown }) => ({
      path: describePath(fastifyError.validationContext, v),
      // The name pattern is unreadable in a message; say what it means, and which character broke it
      // (`data` is the value that failed: the validator is built verbose for this).
      message: v.params?.pattern === NAME_PATTERN ? nameProblem(v.data) : (v.message ?? 'is invalid'),
    }));
    // A query parameter the route cannot use is QUERY_INVALID, as the route's own checks of sort or ids
    // answer it; the 422 is for bodies that fail their schema.
    if (fastifyError.validationContext === 'querystring') return payloadOf(errors.queryInvalid(queryErrors(fastifyError.validation, fields)));
    return payloadOf(errors.requestInvalid(fields));
  }
  const status = fastifyError.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    const known = ourWordsFor(fastifyError);
    return known ? payloadOf(known) : { status, body: errorBody(codeOf(fastifyError, status), fastifyError.message ?? 'bad request') };
  }
  return undefined;
}

interface QueryValidationError {
  readonly keyword?: string;
  readonly params?: Record<string, unknown>;
}

/**
 * One entry per query parameter: a schema of alternatives (`format` of json, csv or xlsx) fails once
 * per alternative, which says nothing a client can act on; the accepted values do.
 */
function queryErrors(validation: readonly QueryValidationError[], fields: readonly FieldError[]): FieldError[] {
  const byPath = new Map<string, { messages: Set<string>; allowed: unknown[] }>();
  fields.forEach((error, i) => {
    const entry = byPath.get(error.path) ?? { messages: new Set<string>(), allowed: [] };
    byPath.set(error.path, entry);
    const v = validation[i];
    if (v?.keyword === 'const') entry.allowed.push(v.params?.allowedValue);
    else if (v?.keyword !== 'anyOf') entry.messages.add(error.message);
  });
  return [...byPath].map(([path, { messages, allowed }]) => ({
    path,
    message: allowed.length > 0 ? `must be one of ${allowed.map((value) => JSON.stringify(value)).join(', ')}` : [...messages].join('; ') || 'is invalid',
  }));
}

function describePath(context: string | undefined, v: { instancePath?: string; params?: Record<string, unknown> }): string {
  const base = (v.instancePath ?? '').replace(/^\//, '').replaceAll('/', '.');
  const missing = typeof v.params?.missingProperty === 'string' ? v.params.missingProperty : undefined;
  const path = [base, missing].filter(Boolean).join('.');
  return path === '' ? (context ?? 'body') : path;
}

/** Fastify's errors we word ourselves; the others keep Fastify's words. */
function ourWordsFor(err: Partial<FastifyError>): ScenaristError | undefined {
  switch (err.code) {
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return errors.bodyEmpty();
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return errors.mediaTypeNotJson();
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
    case 'FST_REQ_FILE_TOO_LARGE':
      return errors.bodyTooLarge();
    case 'FST_ERR_BAD_URL':
      return errors.urlMalformed();
    default:
      return undefined;
  }
}

/** What an answer of a code its route did not declare does (see `ErrorHandlingOptions`). */
export type UndeclaredCodePolicy = 'log' | 'refuse';

export interface ErrorHandlingOptions {
  /** The bases routes are served under (public routes there need no token), for each route's implied codes. */
  readonly prefixes: readonly string[];
  /**
   * A route answering a code it did not declare (src/http/route-errors.ts) is always logged at error
   * (`undeclared error code`); `refuse` (the test apps) answers 500 instead, naming the route and the
   * code, so the test that drove that path fails until the declaration is complete.
   */
  readonly undeclared: UndeclaredCodePolicy;
}

/** The store's outage answer: a 503 a client can tell from a bug, with the driver's words left to the log. */
const STORE_UNAVAILABLE_PAYLOAD = payloadOf(errors.storeUnavailable(STORE_RETRY_AFTER_SECONDS));

const INTERNAL_ERROR_PAYLOAD = payloadOf(errors.internalError());

/** Installs the error mapper and the `{ detail, code }` 404 for unknown routes. */
export function installErrorHandling(app: FastifyInstance, options: ErrorHandlingOptions): void {
  // A route's codes are worked out once, on its first error; `config` is one object per route.
  const declaredByRoute = new WeakMap<object, ReadonlySet<ErrorCode>>();
  const declaredCodes = (request: FastifyRequest): ReadonlySet<ErrorCode> | undefined => {
    const route = request.routeOptions;
    // An unmatched request (the 404 handler's) has no route and declares nothing.
    if (route.url === undefined || route.config === undefined) return undefined;
    let codes = declaredByRoute.get(route.config);
    if (codes === undefined) {
      codes = new Set(routeErrorCodes(route, options.prefixes));
      declaredByRoute.set(route.config, codes);
    }
    return codes;
  };

  app.setErrorHandler((err: unknown, request: FastifyRequest, reply: FastifyReply) => {
    let payload = toErrorPayload(err);
    if (payload) {
      if (payload.status >= 500 || payload.status === 413) request.log.warn({ err }, 'request rejected');
    } else if (isStoreUnavailable(err)) {
      // An outage, not a defect: the client is told to come back; the driver's words stay in the log.
      request.log.error({ err }, 'store unavailable');
      payload = STORE_UNAVAILABLE_PAYLOAD;
    } else {
      request.log.error({ err }, 'unhandled error');
      payload = INTERNAL_ERROR_PAYLOAD;
    }
    const declared = declaredCodes(request);
    if (declared !== undefined && !declared.has(payload.body.code)) {
      const route = `${request.method} ${request.routeOptions.url}`;
      request.log.error({ route, code: payload.body.code, err }, 'undeclared error code');
      if (options.undeclared === 'refuse') {
        payload = payloadOf(errors.undeclaredCode(route, payload.body.code));
      }
    }
    // However the outage was reported, the client is told when to come back.
    if (payload.body.code === 'STORE_UNAVAILABLE') void reply.header('retry-after', String(STORE_RETRY_AFTER_SECONDS));
    return reply.code(payload.status).send(payload.body);
  });
  app.setNotFoundHandler((request, reply) => {
    const { status, body } = payloadOf(errors.routeNotFound(request.method, request.url.split('?')[0] ?? ''));
    reply.code(status).send(body);
  });
}
