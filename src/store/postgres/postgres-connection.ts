import { Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import type { Database } from '../database.js';

/** A pooled PostgreSQL connection. */
export function openPostgres(url: string, maxConnections = 10): Kysely<Database> {
  const pool = new pg.Pool({ connectionString: url, max: maxConnections });
  // An idle client losing its connection (server restart) must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
}
