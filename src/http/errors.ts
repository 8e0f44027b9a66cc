import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ScenaristError, type ErrorCode, type FieldError } from '../errors.js';
import { NAME_PATTERN, NAME_RULE } from '../datasets/names.js';
import { ParameterError } from '../params/errors.js';

/** The one place that knows which HTTP status each error code maps to. */
export const STATUS_BY_CODE: Record<ErrorCode, number> = {
  BAD_INPUT: 400,
  INVALID_PARAMETER: 400,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  TOO_LARGE: 413,
  INVALID_REQUEST: 422,
  UNAUTHORIZED: 401,
  UNSUPPORTED_MEDIA_TYPE: 415,
  REQUEST_TIMEOUT: 408,
  HEADERS_TOO_LARGE: 431,
  INTERNAL_ERROR: 500,
};

/** The HTTP status an error code is answered with. */
export function statusOfCode(code: ErrorCode): number {
  return STATUS_BY_CODE[code];
}

/** The code of a status that carries no code of its own (Fastify's errors): the first code mapped to it. */
function codeOfStatus(status: number): ErrorCode {
  const entry = Object.entries(STATUS_BY_CODE).find(([, s]) => s === status);
  if (entry) return entry[0] as ErrorCode;
  return status >= 500 ? 'INTERNAL_ERROR' : 'BAD_INPUT';
}

/** Every error body on the wire: a message for people and a code for programs (+ `errors` on 422). */
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
  if (err instanceof ParameterError) return { status: 400, body: errorBody('INVALID_PARAMETER', err.message) };
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
    return { status, body: errorBody(codeOfStatus(status), clientMessage(fastifyError)) };
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
    request.log.error({ err }, 'unhandled error');
    return reply.code(500).send(errorBody('INTERNAL_ERROR', 'internal server error'));
  });
  app.setNotFoundHandler((request, reply) => {
    reply.code(404).send(errorBody('NOT_FOUND', `no route ${request.method} ${request.url.split('?')[0]}`));
  });
}
