import { connect } from 'node:net';

/**
 * An SSE client on a raw socket that stops reading once the response head has come, as a stalled
 * browser tab or a consumer that stopped draining its buffer does: what the server writes then piles
 * up in the kernel's buffers and in the server. `resume` reads again until the server closes the
 * connection. Its body is taken as EventSource takes it: only complete frames count, so a stream cut
 * mid-frame resumes after its last whole event.
 */
export interface StallingReader {
  /** The response's status code. */
  readonly status: number;
  /** Reads again; resolves once the server has closed the connection, rejects after `ms`. */
  resumeUntilClosed(ms: number): Promise<void>;
  /** The ids of the complete event frames received so far. */
  eventIds(): number[];
  destroy(): void;
}

/** Opens `GET url` (an http URL) and stops reading as soon as the status line and headers are in. */
export async function stallingReader(url: string): Promise<StallingReader> {
  const target = new URL(url);
  const socket = connect(Number(target.port), target.hostname);
  const received: Buffer[] = [];
  let closed = false;
  socket.on('close', () => (closed = true));
  socket.on('error', () => {}); // a reset counts as a close
  socket.write(`GET ${target.pathname}${target.search} HTTP/1.1\r\nHost: ${target.host}\r\nAccept: text/event-stream\r\n\r\n`);
  const head = await new Promise<string>((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      received.push(chunk);
      const text = Buffer.concat(received).toString('latin1');
      const end = text.indexOf('\r\n\r\n');
      if (end < 0) return;
      socket.pause();
      socket.off('data', onData);
      resolve(text.slice(0, end));
    };
    socket.on('data', onData);
    socket.once('close', () => reject(new Error(`${url}: closed before the response head`)));
  });
  const body = () => {
    const all = Buffer.concat(received);
    return dechunk(all.subarray(all.indexOf('\r\n\r\n') + 4));
  };
  return {
    status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]),
    resumeUntilClosed: (ms) =>
      new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`the server did not close the stream within ${ms} ms`)), ms);
        const done = () => {
          clearTimeout(timer);
          resolve();
        };
        socket.on('data', (chunk: Buffer) => received.push(chunk));
        if (closed) done();
        else socket.once('close', done);
        socket.resume();
      }),
    eventIds: () => completeFrameIds(body().toString('utf8')),
    destroy: () => socket.destroy(),
  };
}

/** The data of a chunked body as far as it came (a cut one included). */
function dechunk(raw: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = raw.indexOf('\r\n', at);
    if (lineEnd < 0) break;
    const size = parseInt(raw.subarray(at, lineEnd).toString('latin1'), 16);
    if (size === 0) break;
    const start = lineEnd + 2;
    parts.push(raw.subarray(start, Math.min(start + size, raw.length)));
    if (start + size + 2 > raw.length) break;
    at = start + size + 2;
  }
  return Buffer.concat(parts);
}

/** Ids of the frames followed by their blank line: a frame cut short is not an event yet. */
function completeFrameIds(text: string): number[] {
  const frames = text.split('\n\n').slice(0, -1);
  const ids: number[] = [];
  for (const frame of frames) {
    const id = /^id: (\d+)$/m.exec(frame)?.[1];
    if (id !== undefined && /^data: /m.test(frame)) ids.push(Number(id));
  }
  return ids;
}
