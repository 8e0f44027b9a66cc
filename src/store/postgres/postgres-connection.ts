import { Kysely } from 'kysely';
import pg from 'pg';
import type { Database } from '../database.js';
import { nameRepeatedStatements, StatementNames } from './named-statements.js';
import { ReadRetryingPostgresDialect } from './read-retry.js';

/** A pooled PostgreSQL connection; a read on a connection that died is run once more on a fresh one. */
export function openPostgres(url: string, maxConnections = 10): Kysely<Database> {
  const pool = new pg.Pool({ connectionString: url, max: maxConnections });
  // An idle client losing its connection (server restart) must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  // A checked-out client whose server connection ends between two queries emits 'error' with no
  // listener (the pool only listens to idle clients), which would crash the process. The query in
  // flight, if any, is rejected anyway, and the pool drops the client when it is released.
  const names = new StatementNames();
  pool.on('connect', (client) => {
    client.on('error', () => {});
    nameRepeatedStatements(client, names);
  });
  return new Kysely<Database>({ dialect: new ReadRetryingPostgresDialect({ pool }) });
}
