import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type ServerProcess } from '../support/server-process.js';

interface RawAnswer {
  readonly status: number;
  readonly headers: Record<string, string>;
  /** Every byte after the blank line that ends the headers, as sent. */
  readonly after: Buffer;
}

/** Writes raw bytes on a fresh connection (chunks `delayMs` apart) and splits what comes back before the server closes it. */
function exchange(port: number, chunks: readonly Buffer[], delayMs = 0): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let received = Buffer.alloc(0);
    let sending: NodeJS.Timeout | undefined;
    socket.on('data', (data: Buffer) => (received = Buffer.concat([received, data])));
    socket.on('error', () => {}); // the server may close while chunks are still being written
    socket.on('close', () => {
      clearTimeout(sending);
      const split = received.indexOf('\r\n\r\n');
      if (split === -1) return reject(new Error(`closed without a response: ${JSON.stringify(received.toString('latin1'))}`));
      const [statusLine, ...lines] = received.toString('latin1', 0, split).split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines) headers[line.slice(0, line.indexOf(':')).toLowerCase()] = line.slice(line.indexOf(':') + 1).trim();
      resolve({ status: Number(statusLine!.split(' ')[1]), headers, after: received.subarray(split + 4) });
    });
    let i = 0;
    const next = () => {
      if (socket.destroyed) return;
      if (i < chunks.length) socket.write(chunks[i++]!);
      if (i < chunks.length) sending = setTimeout(next, delayMs);
    };
    socket.once('connect', next);
  });
}

/** The request bytes with `METHOD` in place of the method. */
const as = (method: string, request: string): Buffer => Buffer.from(request.replace('METHOD', method), 'latin1');

describe('a HEAD request refused before any route answers with headers only', () => {
  let server: ServerProcess;
  beforeAll(async () => {
    server = await startServer({ args: ['--workers', '0', '--request-timeout', '2s', '--headers-timeout', '1s'] });
  });
  afterAll(() => server?.dispose());

  it.each([
    // Refused by Node's parser, answered by our client error handler straight on the socket. In the
    // pipelined case the parser fails on the packet before /health is answered: the refusal comes first.
    ['a raw non-ASCII byte in the path', 400, 'METHOD /api/v1/\xff HTTP/1.1\r\nHost: localhost\r\n\r\n'],
    ['a control byte in the path', 400, 'METHOD /api/v1/sess\x01ions HTTP/1.1\r\nHost: localhost\r\n\r\n'],
    ['a bad HTTP version', 400, 'METHOD /api/v1/sessions HTTP/9.x\r\nHost: localhost\r\n\r\n'],
    ['headers over the size limit', 431, `METHOD /api/v1/sessions HTTP/1.1\r\nHost: localhost\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`],
    ['a malformed chunk size in a body after complete headers', 400, 'METHOD /api/v1/sessions HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n'],
    ['a request refused after another in the same packet', 400, 'GET /health HTTP/1.1\r\nHost: localhost\r\n\r\nMETHOD /api/v1/\xff HTTP/1.1\r\nHost: localhost\r\n\r\n'],
    // Refused by Fastify before routing, or by the fallback for unknown routes.
    ['bad percent-encoding', 400, 'METHOD /api/v1/sessions/%zz HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n'],
    ['a path segment over the length limit', 400, `METHOD /api/v1/sessions/${'a'.repeat(500)} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`],
    ['an unknown route', 404, 'METHOD /api/v1/nowhere HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n'],
    ['a Host not allowed', 403, 'METHOD /api/v1/sessions HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n'],
  ])('%s: %i with the headers of GET and no body', async (_label, status, request) => {
    const get = await exchange(server.port, [as('GET', request)]);
    // The GET of the same bytes does carry the error body, whose length HEAD announces.
    expect(get.status).toBe(status);
    expect(Buffer.byteLength(get.after)).toBe(Number(get.headers['content-length']));
    expect(typeof (JSON.parse(get.after.toString('utf8')) as { code?: unknown }).code).toBe('string');

    const head = await exchange(server.port, [as('HEAD', request)]);
    expect(head.status).toBe(status);
    expect(head.headers['content-type']).toContain('application/json');
    // The length of the body a GET gets (a 404 names the method, so HEAD's is one byte longer).
    expect(Number(head.headers['content-length'])).toBe(Number(get.headers['content-length']) + (status === 404 ? 1 : 0));
    expect(head.headers['x-content-type-options']).toBe('nosniff');
    expect(head.after.length).toBe(0);
  });
});
