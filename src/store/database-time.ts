import { PostgresAdapter, sql, type Kysely, type RawBuilder } from 'kysely';
import type { Database } from './database.js';

/**
 * The database's clock as ISO-8601 text (`2026-01-02T03:04:05.678Z`, the format of JS
 * `toISOString`, so stored times compare as text), shifted by `offsetMs`. Leases and run start
 * times use it: every process then agrees on time, whatever its own host's clock says.
 * `offsetMs` may be a prepared-query stand-in: it is always a bound parameter.
 */
export function databaseTime(db: Kysely<Database>, offsetMs: number): RawBuilder<string> {
  if (db.getExecutor().adapter instanceof PostgresAdapter) {
    return sql<string>`to_char((now() + make_interval(secs => cast(${offsetMs} as double precision) / 1000)) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
  }
  return sql<string>`strftime('%Y-%m-%dT%H:%M:%fZ', 'now', (cast(${offsetMs} as real) / 1000.0) || ' seconds')`;
}
