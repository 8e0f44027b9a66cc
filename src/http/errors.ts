import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ScenaristError, type ErrorCode, type FieldError } from '../errors.js';
import { ParameterError } from '../params/errors.js';

/** The one place that knows which HTTP status each error code maps to. */
const STATUS_BY_CODE: Record<ErrorCode, number> = {
  BAD_INPUT: 400,
  INVALID_PARAMETER: 400,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  TOO_LARGE: 413,
  INVALID_REQUEST: 422,
  UNAUTHORIZED: 401,
};

interface ErrorPayload {
  status: number;
  body: { detail: string; errors?: readonly FieldError[] };
}

/** Maps anything a route throws to a status and a `{ detail }` body; unknown errors are 500. */
export function toErrorPayload(err: unknown): ErrorPayload | undefined {
  if (err instanceof ScenaristError) {
    const status = STATUS_BY_CODE[err.code];
    return { status, body: status === 422 ? { detail: err.message, errors: err.fields } : { detail: err.message } };
  }
  if (err instanceof ParameterError) return { status: 400, body: { detail: err.message } };
  const fastifyError = err as Partial<FastifyError> & { validation?: unknown; validationContext?: string };
  if (Array.isArray(fastifyError.validation)) {
    const errors = fastifyError.validation.map((v: { instancePath?: string; message?: string; params?: Record<string, unknown> }) => ({
      path: describePath(fastifyError.validationContext, v),
      message: v.message ?? 'is invalid',
    }));
    const detail = errors.map((e) => `${e.path}: ${e.message}`).join('; ');
    return { status: 422, body: { detail: `invalid request: ${detail}`, errors } };
  }
  const status = fastifyError.statusCode;
  if (typeof status === 'number' && status >= 400 && status < 500) {
    return { status, body: { detail: clientMessage(fastifyError) } };
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

/** Installs the error mapper and the `{ detail }` 404 for unknown routes. */
export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler((err: unknown, request: FastifyRequest, reply: FastifyReply) => {
    const payload = toErrorPayload(err);
    if (payload) {
      if (payload.status >= 500 || payload.status === 413) request.log.warn({ err }, 'request rejected');
      return reply.code(payload.status).send(payload.body);
    }
    request.log.error({ err }, 'unhandled error');
    return reply.code(500).send({ detail: 'internal server error' });
  });
  app.setNotFoundHandler((request, reply) => {
    reply.code(404).send({ detail: `no route ${request.method} ${request.url.split('?')[0]}` });
  });
}
