import type { ServerResponse } from 'node:http';
import type { FeedSink } from './event-feed.js';
import type { LoggedEvent } from '../model/event-types.js';

/**
 * A client this far behind (bytes written that its connection has not taken) is dropped: the
 * server would otherwise hold every event it does not read. It resumes with Last-Event-ID.
 */
export const MAX_BACKLOG_BYTES = 4 * 1024 * 1024;
/** Tells EventSource how long to wait before reconnecting. */
const RECONNECT_MS = 1_000;

export const SSE_HEADERS = {
  'content-type': 'text/event-stream; charset=utf-8',
  'cache-control': 'no-cache, no-transform',
  connection: 'keep-alive',
  // nginx and similar proxies buffer responses unless told not to.
  'x-accel-buffering': 'no',
} as const;

/** Why the server gave a stream up before its end: `lagging`, its client fell too far behind. */
export type DropReason = 'lagging';

/**
 * One SSE response. It ends after `session.deleted` (nothing more can happen in that session), on
 * server shutdown, or when the client goes away; it is dropped when its client falls more than
 * `MAX_BACKLOG_BYTES` behind. `onEnd` runs once in every case, with the reason of a drop.
 */
export class SseStream implements FeedSink {
  private ended = false;
  /** Ids of the events written that the connection has not taken yet, oldest at `head`. */
  private readonly untaken: number[] = [];
  private head = 0;
  /** Replays waiting for the connection to take what it was given. */
  private drainWaiters: (() => void)[] = [];

  constructor(
    private readonly res: ServerResponse,
    private readonly onEnd: (dropped: DropReason | undefined) => void,
  ) {
    res.on('close', () => this.finish(undefined));
    res.on('drain', () => this.wakeDrainWaiters());
  }

  /** Sends the status line and headers (with those already set, CORS for instance) at once. */
  open(headers: Record<string, string | number | string[] | undefined>): void {
    this.res.writeHead(200, { ...headers, ...SSE_HEADERS });
    this.write(`retry: ${RECONNECT_MS}\n\n`, undefined);
  }

  deliver(event: LoggedEvent, frame: string): void {
    this.write(frame, event.id);
    if (event.type === 'session.deleted') this.end();
  }

  ping(): void {
    this.write(': ping\n\n', undefined);
  }

  drained(): Promise<boolean> {
    if (this.ended) return Promise.resolve(false);
    if (!this.res.writableNeedDrain) return Promise.resolve(true);
    return new Promise((resolve) => this.drainWaiters.push(() => resolve(!this.ended)));
  }

  oldestUntaken(): number | undefined {
    return this.untaken[this.head];
  }

  end(): void {
    if (this.ended) return;
    this.res.end();
    this.finish(undefined);
  }

  private write(text: string, eventId: number | undefined): void {
    if (this.ended) return;
    if (eventId === undefined) this.res.write(text);
    else {
      this.untaken.push(eventId);
      this.res.write(text, this.taken);
    }
    if (this.res.writableLength > MAX_BACKLOG_BYTES) this.drop('lagging');
  }

  /** A write's callback: they come in write order, each once the connection has taken its frame. */
  private readonly taken = (): void => {
    this.head++;
    if (this.head === this.untaken.length) {
      this.untaken.length = 0;
      this.head = 0;
    } else if (this.head > 1024 && this.head * 2 > this.untaken.length) {
      // A client always a few frames behind never empties the list: drop the taken half now and then,
      // so a stream that lives for days holds only the ids still on their way.
      this.untaken.splice(0, this.head);
      this.head = 0;
    }
  };

  /**
   * Closes the connection at once: ending the response would queue its end behind the backlog, and
   * keep the socket and the backlog for a client that may never read again. A client that reads
   * again gets what its connection had taken, then the close, and resumes from its last whole event.
   */
  private drop(reason: DropReason): void {
    this.res.destroy();
    this.finish(reason);
  }

  private finish(dropped: DropReason | undefined): void {
    if (this.ended) return;
    this.ended = true;
    this.wakeDrainWaiters();
    this.onEnd(dropped);
  }

  private wakeDrainWaiters(): void {
    const waiters = this.drainWaiters;
    this.drainWaiters = [];
    for (const wake of waiters) wake();
  }
}
