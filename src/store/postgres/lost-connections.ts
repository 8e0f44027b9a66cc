import type pg from 'pg';
import { waitingForFreeConnections } from './full-server-wait.js';

/**
 * Keeps a pool's lost server connections (a PostgreSQL restart, a failover, an operator's
 * pg_terminate_backend, a dropped database) from crashing the process, for the pool's whole life.
 * - An idle client whose connection ends makes the pool emit 'error'; with no listener, that throws
 *   from the socket's data handler, an uncaught exception. The pool has already dropped the client.
 * - A checked-out client whose connection ends between two queries emits 'error' itself, and the
 *   pool listens only to idle clients. The query in flight, if any, is rejected anyway, and the pool
 *   drops the client when it is released.
 * Listeners that a library adds for a while (graphile-worker's, removed when its runner stops, while
 * the pool still ends its clients) are no substitute: these stay until the pool is gone.
 */
export function survivingLostConnections(pool: pg.Pool): pg.Pool {
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  // And a server too full to take a new connection for a moment is waited out (see full-server-wait.ts).
  return waitingForFreeConnections(pool);
}
