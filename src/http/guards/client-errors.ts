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

/**
 * A complete HTTP/1.1 response with a JSON error body, written straight to the socket. The answer to a
 * HEAD request has the same status and headers (Content-Length included) and no body: a client reads
 * none after the headers, so body bytes would be taken for the start of a next response.
 */
export function rawErrorResponse({ status, code, detail }: ClientError, method?: string): string {
  const body = JSON.stringify({ detail, code });
  const headers = [
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? 'Error'}`,
    'Content-Type: application/json; charset=utf-8',
    `Content-Length: ${Buffer.byteLength(body)}`,
    ...Object.entries(SECURITY_HEADERS).map(([name, value]) => `${name}: ${value}`),
    'Connection: close',
  ];
  return `${headers.join('\r\n')}\r\n\r\n${method === 'HEAD' ? '' : body}`;
}

/** The parts of Node's HTTP parser (`socket.parser`) that say which request is under way. */
interface ParserState {
  readonly incoming?: { readonly method?: string; readonly complete?: boolean } | null;
}

/** The method that starts a request line, after the empty lines a client may send between requests. */
const METHOD_AT_START = /^(?:\r?\n)*([!#$%&'*+.^_`|~0-9A-Za-z-]+) /;

/**
 * The method of the request Node's parser refused, when it can be told. A request whose headers were
 * complete (a body too slow or malformed) is the parser's `incoming` message. Otherwise the request
 * line is read back from the bytes of the packet the parser failed on (`rawPacket`, up to the fault
 * at `bytesParsed`), after the last request that ended in that packet. A request line that arrived in
 * an earlier packet, or a request that timed out before its headers ended, cannot be told (Node's
 * parser keeps the method to itself until the headers end, and reads the socket in C++, out of reach
 * of a 'data' listener): its answer keeps its body, as for any method other than HEAD.
 */
export function methodOfRefusedRequest(err: { rawPacket?: unknown; bytesParsed?: unknown }, socket: Socket): string | undefined {
  const incoming = (socket as Socket & { parser?: ParserState | null }).parser?.incoming;
  if (incoming != null && incoming.complete === false) return incoming.method;
  if (!Buffer.isBuffer(err.rawPacket)) return undefined;
  const end = typeof err.bytesParsed === 'number' ? Math.min(err.bytesParsed, err.rawPacket.length) : err.rawPacket.length;
  const before = err.rawPacket.toString('latin1', 0, end);
  const previousEnd = before.lastIndexOf('\r\n\r\n');
  return METHOD_AT_START.exec(previousEnd === -1 ? before : before.slice(previousEnd + 4))?.[1];
}

/**
 * Fastify's `clientErrorHandler`: requests Node rejects before Fastify sees them (bad bytes in the
 * request line, headers over the size limit, an unknown method, Content-Length with Transfer-Encoding,
 * a request not received within the timeouts) get a `{ detail }` error like every other route.
 */
export function clientErrorHandler(
  this: FastifyInstance,
  err: NodeJS.ErrnoException & { reason?: string; rawPacket?: unknown; bytesParsed?: unknown },
  socket: Socket,
): void {
  // A reset connection has nobody to answer.
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const error = describeClientError(err);
  this.log.info({ status: error.status, err: { code: err.code, message: err.message } }, 'client error');
  // When a response to this request has already started, a second one would corrupt the stream.
  const response = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (socket.writable && response?.headersSent !== true) socket.write(rawErrorResponse(error, methodOfRefusedRequest(err, socket)));
  socket.destroy();
}
