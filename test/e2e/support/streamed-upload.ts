import { randomBytes } from 'node:crypto';
import { request, type ClientRequest } from 'node:http';

/** A part of a streamed multipart body: a field, or a file whose bytes are generated piece by piece. */
export type StreamedPart = { name: string; value: string } | { name: string; filename: string; pieces: () => Iterable<Buffer> | AsyncIterable<Buffer> };

export interface UploadAnswer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly body: { code?: string; detail?: string; success?: boolean; keys?: string[] };
}

export interface StreamedUpload {
  /** Resolves when the whole body was written to the socket. */
  readonly sent: Promise<void>;
  /** The server's answer (rejects when the connection is destroyed first). */
  readonly answer: Promise<UploadAnswer>;
  /** Closes the connection, as a client that goes away does. */
  disconnect(): void;
}

/**
 * POSTs a multipart body generated as it is sent (chunked, with back-pressure), so a test can upload a
 * gigabyte without holding it: the memory of this process stays at one piece.
 */
export function streamUpload(url: string, parts: readonly StreamedPart[]): StreamedUpload {
  const boundary = `----scenarist${randomBytes(8).toString('hex')}`;
  let req!: ClientRequest;
  const answer = new Promise<UploadAnswer>((resolve, reject) => {
    req = request(url, { method: 'POST', headers: { 'content-type': `multipart/form-data; boundary=${boundary}`, 'transfer-encoding': 'chunked' } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('error', reject);
      res.on('end', () => {
        const text = Buffer.concat(chunks).toString('utf8');
        let body: UploadAnswer['body'] = {};
        try {
          body = JSON.parse(text) as UploadAnswer['body'];
        } catch {
          body = { detail: text };
        }
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body });
      });
    });
    req.on('error', reject);
  });
  const write = (chunk: Buffer) => new Promise<void>((resolve, reject) => {
    if (req.destroyed) return reject(new Error('the connection was closed'));
    if (req.write(chunk)) resolve();
    else req.once('drain', resolve);
  });
  const sent = (async () => {
    for (const part of parts) {
      if ('value' in part) {
        await write(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"\r\n\r\n${part.value}\r\n`));
        continue;
      }
      await write(Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"; filename="${part.filename}"\r\nContent-Type: application/octet-stream\r\n\r\n`));
      for await (const piece of part.pieces()) await write(piece);
      await write(Buffer.from('\r\n'));
    }
    await write(Buffer.from(`--${boundary}--\r\n`));
    req.end();
  })();
  // A server that answers before the body is all sent (a 4xx) ends the writing; that is not a failure here.
  sent.catch(() => undefined);
  answer.catch(() => undefined);
  return { sent, answer, disconnect: () => req.destroy() };
}

/** `count` copies of `piece` (the same buffer: nothing new is allocated per copy). */
export function* repeated(piece: Buffer, count: number): Generator<Buffer> {
  for (let i = 0; i < count; i++) yield piece;
}
