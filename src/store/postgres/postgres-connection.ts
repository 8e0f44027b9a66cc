import { Kysely, type Dialect } from 'kysely';
import pg from 'pg';
import type { Database } from '../database.js';
import { survivingLostConnections } from './lost-connections.js';
import { NamingPool } from './named-statements.js';
import { ReadRetryingPostgresDialect } from './read-retry.js';

export const APPLICATION_NAME = 'scenarist';
export const UNFLUSHED_APPLICATION_NAME = 'scenarist-unflushed';

export interface PostgresConnectionOptions {
  readonly maxConnections?: number;
  /**
   * Commits on these connections do not wait for the WAL flush (`synchronous_commit = off`, set for
   * the whole session when it connects). Only for writes whose loss in a crash of the database server
   * is harmless (see the store's `unflushed`).
   */
  readonly unflushed?: boolean;
  /** Repeated statements become named prepared statements (the `named-statements` speed layer; default on). */
  readonly namedStatements?: boolean;
  /** A layer around the dialect (the audit hook). */
  readonly wrap?: (dialect: Dialect) => Dialect;
  /** How long a connection may sit idle in the pool before it is closed (pg's default: 10 s). */
  readonly idleTimeoutMs?: number;
}

/** A pooled PostgreSQL connection; a read on a connection that died is run once more on a fresh one. */
export function openPostgres(
  url: string,
  { maxConnections = 10, unflushed = false, namedStatements = true, wrap = (dialect) => dialect, idleTimeoutMs }: PostgresConnectionOptions = {},
): Kysely<Database> {
  // Named so that an operator tells the two kinds apart in pg_stat_activity.
  const session = unflushed ? { application_name: UNFLUSHED_APPLICATION_NAME, options: '-c synchronous_commit=off' } : { application_name: APPLICATION_NAME };
  const pool = survivingLostConnections(new pg.Pool({ connectionString: url, max: maxConnections, ...session, ...(idleTimeoutMs === undefined ? {} : { idleTimeoutMillis: idleTimeoutMs }) }));
  return new Kysely<Database>({ dialect: wrap(new ReadRetryingPostgresDialect({ pool: namedStatements ? new NamingPool(pool) : pool })) });
}
