import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventFeed, type FeedSink } from '../../src/events/event-feed.js';
import { EventLog } from '../../src/store/event-log.js';
import type { LoggedEvent } from '../../src/model/event-types.js';
import { openStore, type Store } from '../../src/store/store.js';
import { createTestDatabase, type TestDatabase } from '../support/dialects.js';
import { until } from '../support/until.js';

/**
 * A sink that keeps what it is sent. Its client takes everything at once unless the test holds it
 * back: `hold()` makes a replay wait until `release()`; `untaken` plays a connection's backlog.
 */
class Collecting implements FeedSink {
  readonly events: LoggedEvent[] = [];
  readonly frames: string[] = [];
  pings = 0;
  ended = false;
  untaken: number | undefined;
  private held: { promise: Promise<boolean>; release: () => void } | undefined;
  deliver(event: LoggedEvent, frame: string): void {
    this.events.push(event);
    this.frames.push(frame);
  }
  ping(): void {
    this.pings++;
  }
  drained(): Promise<boolean> {
    return this.held?.promise ?? Promise.resolve(true);
  }
  oldestUntaken(): number | undefined {
    return this.untaken;
  }
  end(): void {
    this.ended = true;
  }
  hold(): void {
    let release = () => {};
    const promise = new Promise<boolean>((resolve) => (release = () => resolve(true)));
    this.held = { promise, release };
  }
  release(): void {
    this.held?.release();
    this.held = undefined;
  }
}

describe('the event feed', () => {
  let database: TestDatabase;
  let store: Store;
  let log: EventLog;
  let feed: EventFeed;
  beforeAll(async () => {
    database = await createTestDatabase('sqlite');
    store = await openStore(database.url);
    log = new EventLog(store.db, store.dialect);
    // Only five events in memory, so older resumes are read from the log; a quick heartbeat.
    feed = new EventFeed(log, { log: pino({ level: 'silent' }), memoryEvents: 5, heartbeatMs: 20, pollMs: 50 });
    await feed.start();
  });
  afterAll(async () => {
    feed?.close();
    await store?.close();
    await database?.drop();
  });

  const append = (session: string, count: number) =>
    log.append(Array.from({ length: count }, (_, i) => ({ type: 'session.renamed' as const, session_id: session, display_name: `n${i}` })));

  it('replays a resume from the log or from memory, then goes live, each event once and in order', async () => {
    const start = feed.lastId;
    await append('a', 10);
    await append('b', 10);
    await append('a', 10);
    feed.poke();
    await until('the feed to read 30 events', () => feed.lastId === start + 30);

    const fromLog = new Collecting();
    const fromMemory = new Collecting();
    const live = new Collecting();
    const stops = [await feed.subscribe('a', start, fromLog), await feed.subscribe('a', start + 27, fromMemory), await feed.subscribe('a', undefined, live)];
    const before = feed.lastId;
    await append('a', 3);
    const more = { events: [1, 2, 3].map((i) => ({ id: before + i })) };
    feed.poke();
    await until('the live events', () => fromLog.events.length === 23 && fromMemory.events.length === 6 && live.events.length === 3);

    const aIds = [...Array.from({ length: 10 }, (_, i) => start + 1 + i), ...Array.from({ length: 10 }, (_, i) => start + 21 + i), ...more.events.map((e) => e.id)];
    expect(fromLog.events.map((e) => e.id)).toEqual(aIds);
    expect(fromMemory.events.map((e) => e.id)).toEqual(aIds.filter((id) => id > start + 27));
    expect(live.events.map((e) => e.id)).toEqual(more.events.map((e) => e.id));
    expect(fromLog.frames[0]).toBe(`id: ${start + 1}\nevent: session.renamed\ndata: ${fromLog.events[0]!.json}\n\n`);
    for (const stop of stops) stop();
  });

  it('replays a page at a time as the client takes them, then the events logged meanwhile, each once and in order', async () => {
    const start = feed.lastId;
    await append('paced', 1_200);
    const paced = new Collecting();
    paced.hold();
    let subscribed = false;
    const subscribing = feed.subscribe('paced', start, paced).then((stop) => {
      subscribed = true;
      return stop;
    });
    await until('the first page', () => paced.events.length > 0);
    // The client has not taken the first page: nothing more is handed to it meanwhile.
    await append('paced', 3);
    feed.poke();
    await until('the feed to read the three events logged during the replay', () => feed.lastId === start + 1_203);
    expect(paced.events.length).toBeLessThan(1_200);
    expect(subscribed).toBe(false);

    paced.release();
    const stop = await subscribing;
    expect(paced.events.map((e) => e.id)).toEqual(Array.from({ length: 1_203 }, (_, i) => start + 1 + i));
    await append('paced', 1);
    feed.poke();
    await until('the live event after the replay', () => paced.events.length === 1_204);
    stop();
  });

  it('sends heartbeats, and ends every stream on close', async () => {
    const sink = new Collecting();
    await feed.subscribe('quiet', undefined, sink);
    await until('two heartbeats', () => sink.pings >= 2);
    expect(feed.subscriberCount).toBeGreaterThan(0);
    feed.endStreams();
    expect(sink.ended).toBe(true);
    expect(feed.subscriberCount).toBe(0);
  });

  it('counts a live subscriber only as far as its connection has taken, for the lag metric', async () => {
    const own = new EventFeed(log, { log: pino({ level: 'silent' }), pollMs: 3_600_000 });
    await own.start();
    try {
      expect(own.slowestPosition()).toBeUndefined();
      const sink = new Collecting();
      const stop = await own.subscribe('behind', undefined, sink);
      const start = own.lastId;
      await append('behind', 4);
      own.poke();
      await until('the four events', () => sink.events.length === 4);
      expect(own.slowestPosition()).toBe(start + 4);
      // Its connection still holds the last two: the client has the events up to the second.
      sink.untaken = start + 3;
      expect(own.slowestPosition()).toBe(start + 2);
      stop();
    } finally {
      own.close();
    }
  });

  it('reads nothing on a wake-up while nobody listens, and catches up when someone subscribes', async () => {
    // Its own log reader (the feed above polls the shared one) and a poll far beyond the test, so
    // that only wake-ups and subscriptions read through it.
    const idleLog = new EventLog(store.db, store.dialect);
    const idle = new EventFeed(idleLog, { log: pino({ level: 'silent' }), pollMs: 3_600_000 });
    await idle.start();
    let reads = 0;
    const between = idleLog.between.bind(idleLog);
    idleLog.between = (...args) => {
      reads++;
      return between(...args);
    };
    try {
      const start = idle.lastId;
      await append('nobody', 3);
      idle.poke();
      expect(reads).toBe(0);
      expect(idle.lastId).toBe(start);

      const live = new Collecting();
      const resumed = new Collecting();
      const stops = [await idle.subscribe('nobody', undefined, live), await idle.subscribe('nobody', start, resumed)];
      // The subscription read to the end of the log first: "from now on" excludes the three.
      expect(idle.lastId).toBe(start + 3);
      expect(live.events).toEqual([]);
      expect(resumed.events.map((e) => e.id)).toEqual([start + 1, start + 2, start + 3]);

      await append('nobody', 2);
      idle.poke();
      await until('the two live events', () => live.events.length === 2 && resumed.events.length === 5);
      expect(live.events.map((e) => e.id)).toEqual([start + 4, start + 5]);
      for (const stop of stops) stop();
    } finally {
      idle.close();
    }
  });
});
