import type { Kysely, RawBuilder } from 'kysely';
import type { Database } from './database.js';
import { dialectAdapterOf } from './dialect.js';

/**
 * The database's clock as ISO-8601 text (`2026-01-02T03:04:05.678Z`, the format of JS
 * `toISOString`, so stored times compare as text), shifted by `offsetMs`. Leases and run start
 * times use it: every process then agrees on time, whatever its own host's clock says.
 * `offsetMs` may be a prepared-query stand-in: it is always a bound parameter.
 */
export function databaseTime(db: Kysely<Database>, offsetMs: number): RawBuilder<string> {
  return dialectAdapterOf(db).databaseTime(offsetMs);
}
