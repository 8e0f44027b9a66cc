import { Kysely, type Dialect } from 'kysely';
import pg from 'pg';
import { speedLayerOn } from '../../config/speed-layers.js';
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
  /** A layer around the dialect (the audit hook). */
  readonly wrap?: (dialect: Dialect) => Dialect;
}

/** A pooled PostgreSQL connection; a read on a connection that died is run once more on a fresh one. */
export function openPostgres(url: string, { maxConnections = 10, unflushed = false, wrap = (dialect) => dialect }: PostgresConnectionOptions = {}): Kysely<Database> {
  // Named so that an operator tells the two kinds apart in pg_stat_activity.
  const session = unflushed ? { application_name: UNFLUSHED_APPLICATION_NAME, options: '-c synchronous_commit=off' } : { application_name: APPLICATION_NAME };
  const pool = survivingLostConnections(new pg.Pool({ connectionString: url, max: maxConnections, ...session }));
  return new Kysely<Database>({ dialect: wrap(new ReadRetryingPostgresDialect({ pool: speedLayerOn('named-statements') ? new NamingPool(pool) : pool })) });
}
