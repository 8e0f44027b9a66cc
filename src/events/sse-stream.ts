import type { ServerResponse } from 'node:http';
import type { FeedSink } from './event-feed.js';
import type { LoggedEvent } from '../store/event-types.js';

/** A client this far behind (bytes not yet taken by its socket) is cut off; it resumes with Last-Event-ID. */
const MAX_BUFFERED_BYTES = 4 * 1024 * 1024;
/** Tells EventSource how long to wait before reconnecting. */
const RECONNECT_MS = 1_000;

export const SSE_HEADERS = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache, no-transform',
  connection: 'keep-alive',
  // nginx and similar proxies buffer responses unless told not to.
  'x-accel-buffering': 'no',
} as const;

/**
 * One SSE response. It ends after `session.deleted` (nothing more can happen in that session), on
 * server shutdown, or when the client stops reading; `onEnd` runs once in every case.
 */
export class SseStream implements FeedSink {
  private ended = false;

  constructor(
    private readonly res: ServerResponse,
    private readonly onEnd: () => void,
  ) {
    res.on('close', () => this.finish());
  }

  /** Sends the status line and headers (with those already set, CORS for instance) at once. */
  open(headers: Record<string, string | number | string[] | undefined>): void {
    this.res.writeHead(200, { ...headers, ...SSE_HEADERS });
    this.write(`retry: ${RECONNECT_MS}\n\n`);
  }

  deliver(event: LoggedEvent, frame: string): void {
    this.write(frame);
    if (event.type === 'session.deleted') this.end();
  }

  ping(): void {
    this.write(': ping\n\n');
  }

  end(): void {
    if (this.ended) return;
    this.res.end();
    this.finish();
  }

  private write(text: string): void {
    if (this.ended) return;
    this.res.write(text);
    if (this.res.writableLength > MAX_BUFFERED_BYTES) this.end();
  }

  private finish(): void {
    if (this.ended) return;
    this.ended = true;
    this.onEnd();
  }
}
