import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type ServerProcess } from '../support/server-process.js';
import { until } from '../support/until.js';

interface RawReply {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: string;
}

/** Writes raw bytes (chunks `delayMs` apart) on a fresh connection and parses what comes back before it closes. */
function rawRequest(port: number, chunks: readonly (string | Buffer)[], delayMs = 0, deadlineMs = 20_000): Promise<RawReply> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    let received = Buffer.alloc(0);
    const deadline = setTimeout(() => {
      socket.destroy();
      reject(new Error(`no complete answer within ${deadlineMs} ms; got: ${received.toString().slice(0, 200)}`));
    }, deadlineMs);
    let sending: NodeJS.Timeout | undefined;
    socket.on('data', (data: Buffer) => (received = Buffer.concat([received, data])));
    socket.on('error', () => {}); // the server may close while chunks are still being written
    socket.on('close', () => {
      clearTimeout(deadline);
      clearTimeout(sending);
      const text = received.toString('utf8');
      const split = text.indexOf('\r\n\r\n');
      if (split === -1) return reject(new Error(`connection closed without a response: ${JSON.stringify(text.slice(0, 200))}`));
      const [statusLine, ...lines] = text.slice(0, split).split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines) headers[line.slice(0, line.indexOf(':')).toLowerCase()] = line.slice(line.indexOf(':') + 1).trim();
      resolve({ status: Number(statusLine!.split(' ')[1]), headers, body: text.slice(split + 4) });
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

function expectDetail(reply: RawReply, status: number): void {
  expect(reply.status).toBe(status);
  expect(reply.headers['content-type']).toContain('application/json');
  expect(Number(reply.headers['content-length'])).toBe(Buffer.byteLength(reply.body));
  const body = JSON.parse(reply.body) as Record<string, unknown>;
  expect(typeof body.detail).toBe('string');
  expect(body).not.toHaveProperty('statusCode');
  expect(body).not.toHaveProperty('error');
}

describe('HTTP parser errors and timeouts on a real server', () => {
  let server: ServerProcess;
  beforeAll(async () => {
    server = await startServer({ args: ['--workers', '0', '--request-timeout', '2s', '--headers-timeout', '1s'] });
  });
  afterAll(() => server?.dispose());

  it.each([
    ['a control byte in the request line', 400, 'GET /api/v1/sess\x01ions HTTP/1.1\r\nHost: localhost\r\n\r\n'],
    ['a bad byte in the method', 400, 'G\x7fT /api/v1/sessions HTTP/1.1\r\nHost: localhost\r\n\r\n'],
    ['an unknown method', 400, 'FROB /api/v1/sessions HTTP/1.1\r\nHost: localhost\r\n\r\n'],
    ['a bad HTTP version', 400, 'GET /api/v1/sessions HTTP/9.x\r\nHost: localhost\r\n\r\n'],
    ['headers over the size limit', 431, `GET /api/v1/sessions HTTP/1.1\r\nHost: localhost\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`],
    ['a request line over the size limit', 431, `GET /api/v1/${'a'.repeat(20_000)} HTTP/1.1\r\nHost: localhost\r\n\r\n`],
    ['Content-Length with Transfer-Encoding', 400, 'POST /api/v1/sessions HTTP/1.1\r\nHost: localhost\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n'],
    ['two different Content-Lengths', 400, 'POST /api/v1/sessions HTTP/1.1\r\nHost: localhost\r\nContent-Length: 5\r\nContent-Length: 6\r\n\r\nabcdef'],
    ['a malformed chunk size', 400, 'POST /api/v1/sessions HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n'],
  ])('answers %s with %i and a { detail } body', async (_label, status, request) => {
    const reply = await rawRequest(server.port, [request]);
    expectDetail(reply, status);
    expect(reply.headers['x-content-type-options']).toBe('nosniff');
  });

  it('answers a body sent one byte per second with 408 once request_timeout has passed', async () => {
    const head = 'POST /api/v1/sessions HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n';
    const body = Array.from('{"display_name":"slow"}'.padEnd(1000, ' '));
    const reply = await rawRequest(server.port, [head, ...body], 1000);
    expectDetail(reply, 408);
    const names = ((await (await fetch(`${server.url}/api/v1/sessions`)).json()) as { sessions: { display_name: string }[] }).sessions;
    expect(names.map((s) => s.display_name)).not.toContain('slow');
  });

  it('answers headers trickling in one line per second with 408', async () => {
    const lines = ['GET /api/v1/sessions HTTP/1.1\r\n', 'Host: localhost\r\n', ...Array.from({ length: 30 }, (_, i) => `X-Slow-${i}: 1\r\n`), '\r\n'];
    expectDetail(await rawRequest(server.port, lines, 1000), 408);
  });

  it('closes many stalled uploads, then still serves', async () => {
    const head = 'POST /api/v1/sessions HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{';
    const replies = await Promise.all(Array.from({ length: 50 }, () => rawRequest(server.port, [head])));
    for (const reply of replies) expect(reply.status).toBe(408);
    expect((await fetch(`${server.url}/api/v1/sessions`)).status).toBe(200);
  });

  it('prints no deprecation warning and exactly one log line per request', async () => {
    for (let i = 0; i < 5; i++) await fetch(`${server.url}/api/v1/sessions?n=${i}`);
    await fetch(`${server.url}/api/v1/nowhere`);
    // Log lines come out in order: once the marker's line is there, every line of the requests before it is too.
    await fetch(`${server.url}/api/v1/health?marker`);
    await until('the marker request\'s log line', () => server.output().includes('/api/v1/health?marker'));
    const lines = server.output().split('\n').filter((l) => /"url":"\/api\/v1\/(sessions\?n=|nowhere)/.test(l));
    expect(lines).toHaveLength(6);
    expect(lines.every((l) => l.includes('"msg":"request"'))).toBe(true);
    expect(server.output()).not.toMatch(/FSTDEP|DeprecationWarning/);
  });
});
