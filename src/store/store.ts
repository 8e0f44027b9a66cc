import type { Kysely } from 'kysely';
import type { Database } from './database.js';
import { dialectOf, type StoreDialect } from './dialect.js';
import { DatasetsRepository } from './datasets-repository.js';
import { ExperimentsRepository } from './experiments-repository.js';
import { migrateToLatest } from './migrations/migrate.js';
import { RunsRepository } from './runs-repository.js';
import { ScenariosRepository } from './scenarios-repository.js';
import { SessionsRepository } from './sessions-repository.js';
import type { StoreLock } from './sqlite/store-lock.js';

/** The durable state of the service: one database, its repositories, and how to close it. */
export interface Store {
  readonly dialect: StoreDialect;
  readonly db: Kysely<Database>;
  readonly sessions: SessionsRepository;
  readonly datasets: DatasetsRepository;
  readonly scenarios: ScenariosRepository;
  /** Run state of scenarios: every status transition after creation. */
  readonly runs: RunsRepository;
  readonly experiments: ExperimentsRepository;
  /** On SQLite, the lock this process holds when it owns the store (`owner`); else undefined. */
  readonly lock: StoreLock | undefined;
  close(): Promise<void>;
}

export interface OpenStoreOptions {
  /** Run migrations before returning (default true). */
  readonly migrate?: boolean;
  /** PostgreSQL pool size. */
  readonly maxConnections?: number;
  /**
   * This process owns the store (a command's main thread, never its worker threads): on SQLite it
   * takes the store's lock first, and a second owner anywhere is refused (`StoreLockedError`).
   */
  readonly owner?: boolean;
}

/** Opens the store named by a `sqlite:<path>` or `postgres://` URL and migrates it to the latest schema. */
export async function openStore(databaseUrl: string, options: OpenStoreOptions = {}): Promise<Store> {
  const dialect = dialectOf(databaseUrl);
  // Before the database is touched: a refused second process must not migrate or write anything.
  const lock = dialect === 'sqlite' && options.owner ? (await import('./sqlite/store-lock.js')).lockSqliteStore(databaseUrl.slice('sqlite:'.length)) : undefined;
  // Each driver is loaded only when used: a SQLite deployment never pays for pg, nor the reverse.
  const { db, unflushed } = dialect === 'sqlite' ? await openSqliteStore(databaseUrl) : await openPostgresStore(databaseUrl, options.maxConnections);
  const destroy = async () => {
    await db.destroy();
    if (unflushed !== db) await unflushed.destroy();
    lock?.release();
  };
  try {
    if (options.migrate !== false) await migrateToLatest(db as Kysely<unknown>, dialect);
  } catch (err) {
    await destroy();
    throw err;
  }
  return {
    dialect,
    db,
    sessions: new SessionsRepository(db),
    datasets: new DatasetsRepository(db),
    scenarios: new ScenariosRepository(db),
    runs: new RunsRepository(db, dialect, unflushed),
    experiments: new ExperimentsRepository(db),
    lock,
    close: destroy,
  };
}

/** The handles a store writes through: `unflushed` is for the writes a database crash may lose harmlessly. */
interface Connections {
  readonly db: Kysely<Database>;
  readonly unflushed: Kysely<Database>;
}

async function openSqliteStore(databaseUrl: string): Promise<Connections> {
  const db = (await import('./sqlite/sqlite-connection.js')).openSqlite(databaseUrl.slice('sqlite:'.length));
  // SQLite commits are not flushed one by one anyway (`synchronous = NORMAL`): one handle serves both.
  return { db, unflushed: db };
}

async function openPostgresStore(databaseUrl: string, maxConnections: number | undefined): Promise<Connections> {
  const { openPostgres } = await import('./postgres/postgres-connection.js');
  return {
    db: openPostgres(databaseUrl, { maxConnections }),
    // Claims only (see RunsRepository): a few connections, opened when first used.
    unflushed: openPostgres(databaseUrl, { maxConnections: 3, unflushed: true }),
  };
}
