import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { errors } from '../../error-factories.js';
import { ERROR_REGISTRY, type ErrorCode, type ScenaristError } from '../../errors.js';

import { SECURITY_HEADERS } from './security-headers.js';

interface ClientError {
  readonly status: number;
  readonly code: ErrorCode;
  readonly detail: string;
}

/** What Node's HTTP parser (llhttp) or its timers reported, as the `{ detail }` error a client gets. */
export function describeClientError(err: NodeJS.ErrnoException & { reason?: string }): ClientError {
  const { code, message } = refusalOf(err);
  return { status: ERROR_REGISTRY[code].status, code, detail: message };
}

function refusalOf(err: NodeJS.ErrnoException & { reason?: string }): ScenaristError {
  switch (err.code) {
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return errors.requestTimeout();
    case 'HPE_HEADER_OVERFLOW':
      return errors.headersTooLarge();
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return errors.chunkExtensionsTooLarge();
    case 'HPE_INVALID_METHOD':
      return errors.httpMalformed('unknown or invalid method');
    case 'HPE_UNEXPECTED_CONTENT_LENGTH':
      return errors.httpMalformed('both Content-Length and Transfer-Encoding are set');
    default:
      // llhttp's reason names the fault without echoing the request's bytes.
      return errors.httpMalformed(typeof err.reason === 'string' && err.reason !== '' ? err.reason : 'it cannot be parsed');
  }
}

/** A complete HTTP/1.1 response with a JSON error body, written straight to the socket. */
export function rawErrorResponse({ status, code, detail }: ClientError): string {
  const body = JSON.stringify({ detail, code });
  const headers = [
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    ...Object.entries(SECURITY_HEADERS).map(([name, value]) => `${name}: ${value}`),
    'Connection: close',
  ];
  return `${headers.join('\r\n')}\r\n\r\n${body}`;
}

/**
 * Fastify's `clientErrorHandler`: requests Node rejects before Fastify sees them (bad bytes in the
 * request line, headers over the size limit, an unknown method, Content-Length with Transfer-Encoding,
 * a request not received within the timeouts) get a `{ detail }` error like every other route.
 */
export function clientErrorHandler(this: FastifyInstance, err: NodeJS.ErrnoException & { reason?: string }, socket: Socket): void {
  // A reset connection has nobody to answer.
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const error = describeClientError(err);
  this.log.info({ status: error.status, err: { code: err.code, message: err.message } }, 'client error');
  // When a response to this request has already started, a second one would corrupt the stream.
  const response = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (socket.writable && response?.headersSent !== true) socket.write(rawErrorResponse(error));
  socket.destroy();
}
