import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ERROR_CODES, ERROR_REGISTRY, ScenaristError, type ErrorCode, type FieldError } from '../errors.js';
import { NAME_PATTERN, NAME_RULE } from '../datasets/names.js';
import { ParameterError } from '../params/errors.js';
import { isStoreUnavailable } from '../store/unavailable.js';

/** How long a client is asked to wait (`Retry-After`, seconds) when the database does not answer. */
export const STORE_RETRY_AFTER_SECONDS = 5;

/** The HTTP status each error code maps to, from the registry (the one mapper of codes to statuses). */
export const STATUS_BY_CODE: Readonly<Record<ErrorCode, number>> = Object.fromEntries(
  ERROR_CODES.map((code) => [code, ERROR_REGISTRY[code].status]),
) as Record<ErrorCode, number>;

/** The HTTP status an error code is answered with. */
export function statusOfCode(code: ErrorCode): number {
  return STATUS_BY_CODE[code];
}

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
}

export const errorBody = (code: ErrorCode, detail: string): ErrorBodyView => ({ detail, code });

interface ErrorPayload {
  status: number;
  body: ErrorBodyView;
}

/** Maps anything a route throws to a status and a `{ detail, code }` body; unknown errors are 500. */
export function toErrorPayload(err: unknown): ErrorPayload | undefined {
  if (err instanceof ScenaristError) {
    const status = STATUS_BY_CODE[err.code];
    const body = errorBody(err.code, err.message);
    // A 422, and any error that lists what is wrong field by field (an experiment's invalid combinations), carry `errors`.
    return { status, body: status === 422 || err.fields.length > 0 ? { ...body, errors: err.fields } : body };
  }
  if (err instanceof ParameterError) return { status: 400, body: { ...errorBody('PARAMETER_INVALID', err.message), errors: err.errors } };
  const fastifyError = err as Partial<FastifyError> & { validation?: unknown; validationContext?: string };
  if (Array.isArray(fastifyError.validation)) {
    const errors = fastifyError.validation.map((v: { instancePath?: string; message?: string; params?: Record<string, unknown> }) => ({
      path: describePath(fastifyError.validationContext, v),
      // The name pattern is unreadable in a message; say what it means.
      message: v.params?.pattern === NAME_PATTERN ? `must be ${NAME_RULE}` : (v.message ?? 'is invalid'),
    }));
    const detail = errors.map((e) => `${e.path}: ${e.message}`).join('; ');
    return { status: 422, body: { ...errorBody('INVALID_REQUEST', `invalid request: ${detail}`), errors } };
  }
  const status = fastifyError.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return { status, body: errorBody(codeOf(fastifyError, status), clientMessage(fastifyError)) };
  }
  return undefined;
}

function describePath(context: string | undefined, v: { instancePath?: string; params?: Record<string, unknown> }): string {
  const base = (v.instancePath ?? '').replace(/^\//, '').replaceAll('/', '.');
  const missing = typeof v.params?.missingProperty === 'string' ? v.params.missingProperty : undefined;
  const path = [base, missing].filter(Boolean).join('.');
  return path === '' ? (context ?? 'body') : path;
}

function clientMessage(err: Partial<FastifyError>): string {
  switch (err.code) {
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return 'the request body is empty; send a JSON document';
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return `unsupported content type; this route takes application/json`;
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
    case 'FST_REQ_FILE_TOO_LARGE':
      return 'the request body is larger than the configured limit';
    case 'FST_ERR_BAD_URL':
      return 'the request URL is not valid (bad percent-encoding?)';
    default:
      return err.message ?? 'bad request';
  }
}

/** Installs the error mapper and the `{ detail, code }` 404 for unknown routes. */
export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((err: unknown, request: FastifyRequest, reply: FastifyReply) => {
    const payload = toErrorPayload(err);
    if (payload) {
      if (payload.status >= 500 || payload.status === 413) request.log.warn({ err }, 'request rejected');
      return reply.code(payload.status).send(payload.body);
    }
    if (isStoreUnavailable(err)) {
      // An outage, not a defect: the client is told to come back; the driver's words stay in the log.
      request.log.error({ err }, 'store unavailable');
      return reply
        .code(STATUS_BY_CODE.STORE_UNAVAILABLE)
        .header('retry-after', String(STORE_RETRY_AFTER_SECONDS))
        .send(errorBody('STORE_UNAVAILABLE', `the database does not answer; retry in ${STORE_RETRY_AFTER_SECONDS} s`));
    }
    request.log.error({ err }, 'unhandled error');
    return reply.code(500).send(errorBody('INTERNAL_ERROR', 'internal server error'));
  });
  app.setNotFoundHandler((request, reply) => {
    reply.code(404).send(errorBody('ROUTE_NOT_FOUND', `no route ${request.method} ${request.url.split('?')[0]}`));
  });
}
