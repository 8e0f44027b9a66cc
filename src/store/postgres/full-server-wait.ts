import { setTimeout as delay } from 'node:timers/promises';
import type pg from 'pg';

/**
 * How long a new connection waits out a server at its connection limit before the error stands: long
 * enough for pools that grew at one moment to settle, short enough that a request still answers 503
 * well within a client's patience.
 */
const WAIT_MS = 10_000;
const FIRST_PAUSE_MS = 25;
const LONGEST_PAUSE_MS = 1_000;

/**
 * SQLSTATEs of a server that cannot take one more connection just now: `too_many_connections` (its
 * `max_connections`, or a database's or role's connection limit) and `cannot_connect_now` (starting up).
 */
const BUSY_SERVER = new Set(['53300', '57P03']);

const isBusyServer = (err: unknown) => typeof err === 'object' && err !== null && BUSY_SERVER.has(String((err as { code?: unknown }).code));

/**
 * Makes `pool.connect()` wait, with growing pauses and for at most 10 s, while the server refuses new
 * connections for being full, instead of failing the work that asked at once. Many processes each
 * growing their pools at one moment (a wide sweep starting on several worker processes) can touch
 * `max_connections` for an instant; a run whose thread asked for a connection then failed with
 * "sorry, too many clients already", though a connection was free a few milliseconds later. Any
 * other connection error fails at once, as before. `onRefused` hears each refusal waited out.
 */
export function waitingForFreeConnections(pool: pg.Pool, onRefused: (err: Error) => void = () => {}): pg.Pool {
  const connect = pool.connect.bind(pool) as () => Promise<pg.PoolClient>;
  const waiting = async (): Promise<pg.PoolClient> => {
    const deadline = Date.now() + WAIT_MS;
    for (let pause = FIRST_PAUSE_MS; ; pause = Math.min(pause * 2, LONGEST_PAUSE_MS)) {
      try {
        return await connect();
      } catch (err) {
        if (!isBusyServer(err) || Date.now() + pause > deadline) throw err;
        onRefused(err as Error);
        await delay(pause);
      }
    }
  };
  // The callback form (pg's own `pool.query` uses it) waits the same way. The callback is called on a
  // tick of its own, as pg-pool calls it from its events: what it throws is not turned into a rejection.
  pool.connect = ((callback?: (err: Error | undefined, client?: pg.PoolClient, done?: (release?: unknown) => void) => void) => {
    if (callback === undefined) return waiting();
    waiting().then(
      (client) => process.nextTick(() => callback(undefined, client, (release) => client.release(release as boolean | Error | undefined))),
      (err: Error) => process.nextTick(() => callback(err)),
    );
    return undefined;
  }) as typeof pool.connect;
  return pool;
}
