import type { Logger } from 'pino';
import type { EventLog } from '../store/event-log.js';
import type { LoggedEvent } from '../store/event-types.js';
import { CoalescedTask } from '../async/coalesced-task.js';

/** Where a subscription's events go (an SSE response). */
export interface FeedSink {
  /** One new event of the subscribed session, ids strictly increasing; `frame` is its SSE text. */
  deliver(event: LoggedEvent, frame: string): void;
  /** Keeps idle connections (and proxies) from timing out. */
  ping(): void;
  /** The feed is closing (server shutdown). */
  end(): void;
}

export interface EventFeedOptions {
  readonly log: Logger;
  /** Recent events kept in memory to serve resumes without a query. */
  readonly memoryEvents?: number;
  readonly heartbeatMs?: number;
  /** How often the log is read even without a wake-up (a lost notification costs at most this). */
  readonly pollMs?: number;
}

/** One event per SSE frame; its id doubles as `Last-Event-ID` for a resume. */
export const sseFrame = (event: LoggedEvent) => `id: ${event.id}\nevent: ${event.type}\ndata: ${event.json}\n\n`;

interface Subscription {
  readonly sessionId: string;
  readonly sink: FeedSink;
  /** Highest id handed to the sink: anything at or below it is never sent again. */
  cursor: number;
  /** Live events held while the backlog is read from the log. */
  held: { event: LoggedEvent; frame: string }[] | undefined;
}

const PAGE = 1_000;

/**
 * The live side of the event log in one server process. It reads the log by id (never trusting
 * in-memory fan-out alone), so events written by any process (API nodes and workers on PostgreSQL)
 * reach every subscriber in id order. A wake-up (`poke`) comes from this process's commits (SQLite)
 * or a PostgreSQL notification; a slow poll is the backstop. A subscription first replays its session's
 * events after its resume id, from memory when recent enough, else from the log, then goes live.
 * Without subscribers nobody waits for an event, so a wake-up reads nothing: the poll reads what
 * came meanwhile in pages, and a new subscription first reads up to the end of the log (a commit
 * costs no read on the HTTP thread until someone listens).
 */
export class EventFeed {
  private cursor = 0;
  private recent: { event: LoggedEvent; frame: string }[] = [];
  private readonly bySession = new Map<string, Set<Subscription>>();
  private readonly reader = new CoalescedTask(() => this.readNew());
  private heartbeat: NodeJS.Timeout | undefined;
  private poller: NodeJS.Timeout | undefined;
  private readonly memoryEvents: number;

  constructor(
    private readonly eventLog: EventLog,
    private readonly options: EventFeedOptions,
  ) {
    this.memoryEvents = options.memoryEvents ?? 10_000;
  }

  /** Starts at the end of the log: older events are read from it only by resuming subscribers. */
  async start(): Promise<void> {
    this.cursor = await this.eventLog.lastId();
    this.heartbeat = setInterval(() => this.each((s) => s.held === undefined && s.sink.ping()), this.options.heartbeatMs ?? 15_000);
    this.heartbeat.unref();
    this.poller = setInterval(() => this.reader.ask(), this.options.pollMs ?? 2_000);
    this.poller.unref();
  }

  /** The id of the last event this feed has read. */
  get lastId(): number {
    return this.cursor;
  }

  get subscriberCount(): number {
    let n = 0;
    for (const set of this.bySession.values()) n += set.size;
    return n;
  }

  /**
   * How far the slowest subscriber has been brought: the feed's own position for a live one (it has
   * every event of its session up to there), its replay position for one still catching up. Undefined
   * without subscribers. The event-feed lag metric is the newest logged id minus this.
   */
  slowestPosition(): number | undefined {
    let slowest: number | undefined;
    this.each((s) => {
      const position = s.held === undefined ? this.cursor : s.cursor;
      if (slowest === undefined || position < slowest) slowest = position;
    });
    return slowest;
  }

  /** New events may be committed: read them (coalesced; one read at a time) if anyone listens. */
  poke(): void {
    if (this.bySession.size > 0) this.reader.ask();
  }

  /**
   * Subscribes `sink` to a session's events with ids above `since` (undefined: only events from now
   * on). Answers the function that unsubscribes.
   */
  async subscribe(sessionId: string, since: number | undefined, sink: FeedSink): Promise<() => void> {
    const subscription: Subscription = { sessionId, sink, cursor: since ?? this.cursor, held: [] };
    let set = this.bySession.get(sessionId);
    if (!set) this.bySession.set(sessionId, (set = new Set()));
    set.add(subscription);
    const unsubscribe = () => {
      set.delete(subscription);
      if (set.size === 0 && this.bySession.get(sessionId) === set) this.bySession.delete(sessionId);
    };
    try {
      // Wake-ups read nothing while nobody listened: read to the end of the log first (the
      // subscription is already listed, so commits meanwhile wake the reader), so that "from now on"
      // means now and the replay comes from memory when it can.
      this.reader.ask();
      await this.reader.idle();
      if (since === undefined) subscription.cursor = this.cursor;
      // Everything up to `upto` has been read; everything after reaches the subscription live.
      const upto = this.cursor;
      if (subscription.cursor < upto) await this.replay(subscription, upto);
      for (const { event, frame } of subscription.held!) this.send(subscription, event, frame);
      subscription.held = undefined;
    } catch (err) {
      unsubscribe();
      throw err;
    }
    return unsubscribe;
  }

  /** Ends every subscription (their clients reconnect elsewhere with Last-Event-ID) and stops reading. */
  close(): void {
    void this.reader.stop();
    clearInterval(this.heartbeat);
    clearInterval(this.poller);
    this.endStreams();
  }

  /** Ends every open stream; new events are still read for later subscribers. */
  endStreams(): void {
    const all: Subscription[] = [];
    this.each((s) => all.push(s));
    this.bySession.clear();
    for (const s of all) s.sink.end();
  }

  private async replay(subscription: Subscription, upto: number): Promise<void> {
    const first = this.recent[0]?.event.id;
    if (first !== undefined && first <= subscription.cursor + 1) {
      for (let i = this.indexAfter(subscription.cursor); i < this.recent.length; i++) {
        const { event, frame } = this.recent[i]!;
        if (event.id > upto) break;
        if (event.sessionId === subscription.sessionId) this.send(subscription, event, frame);
      }
      return;
    }
    for (;;) {
      const page = await this.eventLog.ofSession(subscription.sessionId, subscription.cursor, upto, PAGE);
      for (const event of page) this.send(subscription, event, sseFrame(event));
      if (page.length < PAGE) return;
    }
  }

  /** Index of the first recent event with an id above `id`. */
  private indexAfter(id: number): number {
    let low = 0;
    let high = this.recent.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      if (this.recent[mid]!.event.id <= id) low = mid + 1;
      else high = mid;
    }
    return low;
  }

  private async readNew(): Promise<void> {
    try {
      for (;;) {
        const page = await this.eventLog.between(this.cursor, Number.MAX_SAFE_INTEGER, PAGE);
        for (const event of page) this.publish(event);
        if (page.length < PAGE) return;
      }
    } catch (err) {
      this.options.log.warn({ err }, 'could not read new events; retrying at the next wake-up');
    }
  }

  private publish(event: LoggedEvent): void {
    if (event.id <= this.cursor) return;
    this.cursor = event.id;
    const entry = { event, frame: sseFrame(event) };
    this.recent.push(entry);
    if (this.recent.length > this.memoryEvents * 2) this.recent = this.recent.slice(-this.memoryEvents);
    const set = this.bySession.get(event.sessionId);
    if (!set) return;
    for (const subscription of [...set]) {
      if (subscription.held) subscription.held.push(entry);
      else this.send(subscription, event, entry.frame);
    }
  }

  private send(subscription: Subscription, event: LoggedEvent, frame: string): void {
    if (event.id <= subscription.cursor) return;
    subscription.cursor = event.id;
    subscription.sink.deliver(event, frame);
  }

  private each(visit: (s: Subscription) => void): void {
    for (const set of this.bySession.values()) for (const s of set) visit(s);
  }
}
