import type { Logger } from 'pino';
import type { EventLog } from '../store/event-log.js';
import type { LoggedEvent } from '../model/event-types.js';
import { CoalescedTask } from '../async/coalesced-task.js';
import { RecentEvents, type FeedEntry, type SessionPage } from './recent-events.js';

/** Where a subscription's events go (an SSE response). */
export interface FeedSink {
  /** One new event of the subscribed session, ids strictly increasing; `frame` is its SSE text. */
  deliver(event: LoggedEvent, frame: string): void;
  /** Keeps idle connections (and proxies) from timing out. */
  ping(): void;
  /**
   * Resolves once the sink's connection has taken nearly all it was given (at once when it has): true,
   * or false when the sink has ended meanwhile. A replay waits for it after each page, so that it goes
   * at its client's pace.
   */
  drained(): Promise<boolean>;
  /** The id of the oldest event delivered that the client has not taken yet; undefined when none waits. */
  oldestUntaken(): number | undefined;
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

/**
 * Recent events kept in memory by default: a resume from further back reads the log, a page per
 * query. Each event kept costs about 1 KiB of heap (its JSON and SSE frame): heap snapshots of a
 * server after 200 and after 3,200 Instant runs (some 11,000 events more) differed by 12 MB, nearly
 * all of it these entries. At the former 10,000 (up to 20,000 before a trim) they would hold 10-20 MB
 * of a live heap of about 50 MB; 2,000 still serves a reader that reconnects within the last few
 * hundred runs of its server without a query. (The peak RSS after the run benchmark hardly moved,
 * 243 -> 239 MB: it is set by garbage not yet collected, not by what is kept.)
 */
const MEMORY_EVENTS = 2_000;

/** One event per SSE frame; its id doubles as `Last-Event-ID` for a resume. */
export const sseFrame = (event: LoggedEvent) => `id: ${event.id}\nevent: ${event.type}\ndata: ${event.json}\n\n`;

interface Subscription {
  readonly sessionId: string;
  readonly sink: FeedSink;
  /** Highest id handed to the sink: anything at or below it is never sent again. */
  cursor: number;
  /**
   * While it replays, how far through the log it is (it was handed every event of its session up to
   * there); `live` once it gets each new event as the feed reads it.
   */
  replayedTo: number | 'live';
  /** Unsubscribed, or its stream ended: a replay in progress stops. */
  gone: boolean;
}

/** Events the feed reads from the log at once. */
const PAGE = 1_000;
/**
 * Events a replay hands its sink before it waits for the client to take them: a few hundred KiB
 * (events are a few hundred bytes), well under the backlog a stream may hold, however fast the log
 * is read.
 */
const REPLAY_PAGE = 500;

/**
 * The live side of the event log in one server process. It reads the log by id (never trusting
 * in-memory fan-out alone), so events written by any process (API nodes and workers on PostgreSQL)
 * reach every subscriber in id order. A wake-up (`poke`) comes from this process's commits (SQLite)
 * or a PostgreSQL notification; a slow poll is the backstop. A subscription first replays its session's
 * events after its resume id, from memory when recent enough, else from the log, a page at a
 * time at its client's pace, until it has caught up with the feed; then it goes live. Live events are
 * written without waiting (one slow client must not hold back the others): a stream whose client
 * falls too far behind drops itself, and its client resumes.
 * Without subscribers nobody waits for an event, so a wake-up reads nothing: the poll reads what
 * came meanwhile in pages, and a new subscription first reads up to the end of the log (a commit
 * costs no read on the HTTP thread until someone listens).
 */
export class EventFeed {
  private cursor = 0;
  private readonly recent: RecentEvents;
  private readonly bySession = new Map<string, Set<Subscription>>();
  private readonly reader = new CoalescedTask(() => this.readNew());
  private heartbeat: NodeJS.Timeout | undefined;
  private poller: NodeJS.Timeout | undefined;

  constructor(
    private readonly eventLog: EventLog,
    private readonly options: EventFeedOptions,
  ) {
    this.recent = new RecentEvents(options.memoryEvents ?? MEMORY_EVENTS);
  }

  /** Starts at the end of the log: older events are read from it only by resuming subscribers. */
  async start(): Promise<void> {
    this.cursor = await this.eventLog.lastId();
    this.heartbeat = setInterval(() => this.each((s) => s.replayedTo === 'live' && s.sink.ping()), this.options.heartbeatMs ?? 15_000);
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
   * How far the slowest subscriber's client has got: the feed's own position for a live one, its
   * replay position for one catching up, but never past the oldest event its connection has not
   * taken yet (the client has every event of its session before that one). Undefined without
   * subscribers. The event-feed lag metric is the newest logged id minus this.
   */
  slowestPosition(): number | undefined {
    let slowest: number | undefined;
    this.each((s) => {
      const handed = s.replayedTo === 'live' ? this.cursor : s.replayedTo;
      const untaken = s.sink.oldestUntaken();
      const position = untaken === undefined ? handed : Math.min(handed, untaken - 1);
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
    const start = since ?? this.cursor;
    const subscription: Subscription = { sessionId, sink, cursor: start, replayedTo: start, gone: false };
    let set = this.bySession.get(sessionId);
    if (!set) this.bySession.set(sessionId, (set = new Set()));
    set.add(subscription);
    const unsubscribe = () => {
      subscription.gone = true;
      set.delete(subscription);
      if (set.size === 0 && this.bySession.get(sessionId) === set) this.bySession.delete(sessionId);
    };
    try {
      // Wake-ups read nothing while nobody listened: read to the end of the log first (the
      // subscription is already listed, so commits meanwhile wake the reader), so that "from now on"
      // means now and the replay comes from memory when it can.
      this.reader.ask();
      await this.reader.idle();
      if (since === undefined) subscription.cursor = subscription.replayedTo = this.cursor;
      await this.catchUp(subscription);
    } catch (err) {
      unsubscribe();
      throw err;
    }
    // Its stream ended during the replay.
    if (subscription.gone) unsubscribe();
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
    for (const s of all) {
      s.gone = true;
      s.sink.end();
    }
  }

  /**
   * Replays the subscription's events a page at a time, each page once its client has taken the one
   * before, until it has every event the feed has read; then, in the same turn (no event can slip in
   * between), it is live. The replay reads the events logged meanwhile itself, so nothing piles up
   * for a slow client: its connection holds one page at most.
   */
  private async catchUp(subscription: Subscription): Promise<void> {
    for (let position = subscription.replayedTo; position !== 'live' && position < this.cursor; position = subscription.replayedTo) {
      const page = this.recent.sessionPage(subscription.sessionId, position, REPLAY_PAGE) ?? (await this.loggedPage(subscription.sessionId, position));
      for (const { event, frame } of page.entries) this.send(subscription, event, frame);
      subscription.replayedTo = page.reached;
      if (!(await subscription.sink.drained()) || subscription.gone) {
        subscription.gone = true;
        return;
      }
    }
    subscription.replayedTo = 'live';
  }

  /** A session's next events after `position` from the log, for a resume older than memory. */
  private async loggedPage(sessionId: string, position: number): Promise<SessionPage> {
    const upto = this.cursor;
    const events = await this.eventLog.ofSession(sessionId, position, upto, REPLAY_PAGE);
    return {
      entries: events.map((event) => ({ event, frame: sseFrame(event) })),
      reached: events.length === REPLAY_PAGE ? events.at(-1)!.id : upto,
    };
  }

  private async readNew(): Promise<void> {
    try {
      for (;;) {
        const page = await this.eventLog.between(this.cursor, Number.MAX_SAFE_INTEGER, PAGE);
        for (const event of page) this.publish(event);
        if (page.length < PAGE) return;
        // Let the sockets take this page before the next is written (a SQLite read never yields to
        // I/O): a burst of events then piles up only for a client that does not read.
        await new Promise((resolve) => setImmediate(resolve));
      }
    } catch (err) {
      this.options.log.warn({ err }, 'could not read new events; retrying at the next wake-up');
    }
  }

  private publish(event: LoggedEvent): void {
    if (event.id <= this.cursor) return;
    this.cursor = event.id;
    const entry: FeedEntry = { event, frame: sseFrame(event) };
    this.recent.add(entry);
    const set = this.bySession.get(event.sessionId);
    if (!set) return;
    // A subscription still replaying reads this event with its next page.
    for (const subscription of [...set]) if (subscription.replayedTo === 'live') this.send(subscription, event, entry.frame);
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
