import type { Kysely } from 'kysely';
import type { Database } from './database.js';
import { dialectAdapter, type DialectAdapter, type StoreDialect } from './dialect.js';

/**
 * A store part that works on the database by itself, outside the `Store` object (the event log, the
 * webhook delivery queue): it is given the connection and the dialect's name, as its callers hold them,
 * and reaches what differs between dialects through the one adapter.
 */
export abstract class DialectBound {
  protected readonly dialect: DialectAdapter;

  constructor(
    protected readonly db: Kysely<Database>,
    dialect: StoreDialect,
  ) {
    this.dialect = dialectAdapter(dialect);
  }
}
