import { PostgresAdapter, sql, type Kysely, type RawBuilder, type SelectQueryBuilder } from 'kysely';
import { speedLayerOn, type SpeedLayer } from '../config/speed-layers.js';
import type { Database } from './database.js';
import type { StoreLock } from './sqlite/store-lock.js';
import { AuditingDialect } from './audit/auditing-dialect.js';

/** The SQL dialects the store runs on; repositories are the same for both. */
export type StoreDialect = 'sqlite' | 'postgres';

export function dialectOf(databaseUrl: string): StoreDialect {
  return databaseUrl.startsWith('sqlite:') ? 'sqlite' : 'postgres';
}

/** The handles a store writes through: `unflushed` is for the writes a database crash may lose harmlessly. */
export interface OpenedDatabase {
  readonly db: Kysely<Database>;
  readonly unflushed: Kysely<Database>;
  /** Held while this process owns the store, where the dialect has such a lock; else undefined. */
  readonly lock: StoreLock | undefined;
  /** The audit hook around `db`'s driver (see `src/store/audit/auditing-dialect.ts`). */
  readonly audit: AuditingDialect;
}

export interface OpenDatabaseOptions {
  /** This process owns the store (see `OpenStoreOptions.owner`). */
  readonly owner: boolean;
  /** Pool size, where the dialect pools connections. */
  readonly maxConnections: number | undefined;
  /** How long a pooled connection may stay idle before it is closed, where the dialect pools connections. */
  readonly idleConnectionMs: number | undefined;
  /** The speed layers switched off (a benchmark's comparison). */
  readonly speedLayersOff: ReadonlySet<SpeedLayer>;
}

/**
 * Everything that differs between SQLite and PostgreSQL outside the migrations (which take the
 * dialect's name), as Kysely's own `DialectAdapter` holds the differences of its SQL compilers. The
 * store picks one when it opens; repositories and queries ask it instead of testing the dialect
 * (builders handed only a Kysely handle, such as prepared queries, find it with `dialectAdapterOf`).
 */
export interface DialectAdapter {
  readonly name: StoreDialect;
  /**
   * Whether this process is the only writer of its store, so memory may answer reads (scenario
   * status, session resolution) that would otherwise go to the database, one process may own the run
   * queue, and it may wake its event feed after its own commits. That holds for SQLite: the process
   * that opened the store holds its lock (`owner`) and refuses every other, whatever its flags, and
   * its worker threads only read datasets. It does not hold on PostgreSQL, where any number of API
   * nodes and worker processes share the database, which must stay the source of truth.
   */
  readonly singleWriter: boolean;
  /**
   * Whether a write of several tables is better made as one statement (a data-modifying `WITH`):
   * PostgreSQL can, and pays a round trip and a WAL flush per statement; SQLite cannot, and its
   * statements are calls within the process.
   */
  readonly combinesWrites: boolean;
  /** The file that holds the store named by `databaseUrl`, when it is a file (readiness watches it). */
  databaseFile(databaseUrl: string): string | undefined;
  /** Opens the database; each driver is loaded only when used, so a deployment never pays for the other. */
  open(databaseUrl: string, options: OpenDatabaseOptions): Promise<OpenedDatabase>;
  /** `column` contains the LIKE `pattern` (escaped with `\`), ignoring case. */
  matchesIgnoringCase(column: string, pattern: string): RawBuilder<boolean>;
  /** Each table's name, columns and row count in order, as JSON text, of the dataset whose `seq` is in `datasetSeqColumn`. */
  tableSummaries(datasetSeqColumn: string): RawBuilder<string | null>;
  /**
   * The texts of the packs the table content `hashColumn` names (`table_content_packs`), each after its
   * id and a space, joined in any order (src/store/table-pack-text.ts): an aggregate's `order by` would
   * sort the packs' texts, which made a read of a 100k-row table ten times slower.
   */
  joinedPacks(hashColumn: RawBuilder<unknown>): RawBuilder<string | null>;
  /** The database's clock as ISO-8601 text shifted by `offsetMs` (see `databaseTime`). */
  databaseTime(offsetMs: number): RawBuilder<string>;
  /** The rows read stay as they are until the transaction ends (no concurrent change commits between). */
  sharingRows<DB, TB extends keyof DB, O>(query: SelectQueryBuilder<DB, TB, O>): SelectQueryBuilder<DB, TB, O>;
  /** The rows read are this transaction's to change or delete: other transactions wait for them. */
  lockingRows<DB, TB extends keyof DB, O>(query: SelectQueryBuilder<DB, TB, O>): SelectQueryBuilder<DB, TB, O>;
  /** The rows read are this transaction's to change; rows another transaction holds are skipped, not waited for. */
  claimingRows<DB, TB extends keyof DB, O>(query: SelectQueryBuilder<DB, TB, O>): SelectQueryBuilder<DB, TB, O>;
  /** Numbers the committed events that have no id yet and answers how many (see `EventLog.number`). */
  numberCommittedEvents(db: Kysely<Database>): Promise<number>;
  /**
   * Inside a transaction: waits until no other transaction holds `key`, then holds it until this one
   * ends, so the transactions that take one key run one after the other (each sees what the previous
   * committed). Nothing else waits on it: it is a name, not a row.
   */
  holdKey(trx: Kysely<Database>, key: string): Promise<void>;
}

const SQLITE_PREFIX = 'sqlite:';

/**
 * SQLite: one process owns the file, and a write transaction holds the whole database, so rows need
 * no locks of their own, and events are numbered as they are written.
 */
const SQLITE: DialectAdapter = {
  name: 'sqlite',
  singleWriter: true,
  combinesWrites: false,
  databaseFile: (databaseUrl) => databaseUrl.slice(SQLITE_PREFIX.length),
  open: async (databaseUrl, { owner, speedLayersOff }) => {
    const path = databaseUrl.slice(SQLITE_PREFIX.length);
    // Before the database is touched: a refused second process must not migrate or write anything.
    const lock = owner ? (await import('./sqlite/store-lock.js')).lockSqliteStore(path) : undefined;
    let audit: AuditingDialect | undefined;
    const db = (await import('./sqlite/sqlite-connection.js')).openSqlite(path, {
      statementCache: speedLayerOn('statement-cache', speedLayersOff),
      wrap: (inner) => (audit = new AuditingDialect(inner, 'sqlite')),
    });
    // SQLite commits are not flushed one by one anyway (`synchronous = NORMAL`): one handle serves both.
    return { db, unflushed: db, lock, audit: audit! };
  },
  matchesIgnoringCase: (column, pattern) => sql<boolean>`${sql.ref(column)} like ${pattern} escape '\\'`,
  joinedPacks: (hash) =>
    sql<string | null>`(select group_concat(p.id || ' ' || p.text, '') from table_content_packs l join table_packs p on p.id = l.pack_id where l.hash = ${hash})`,
  tableSummaries: (column) =>
    sql<string | null>`(select json_group_array(json_object('name', t.name, 'columns', json(t.columns_json), 'rows', t.row_count))
        from (select dt.name, c.columns_json, c.row_count from dataset_tables dt join table_contents c on c.hash = dt.hash
              where dt.dataset_seq = ${sql.ref(column)} order by dt.position) t)`,
  databaseTime: (offsetMs) => sql<string>`strftime('%Y-%m-%dT%H:%M:%fZ', 'now', (cast(${offsetMs} as real) / 1000.0) || ' seconds')`,
  sharingRows: (query) => query,
  lockingRows: (query) => query,
  claimingRows: (query) => query,
  numberCommittedEvents: async () => 0,
  // A write transaction begins IMMEDIATE, holding the whole database: it already runs alone.
  holdKey: async () => undefined,
};

/** PostgreSQL: many processes share the database; row locks and the outbox's numbering keep them apart. */
const POSTGRES: DialectAdapter = {
  name: 'postgres',
  singleWriter: false,
  combinesWrites: true,
  databaseFile: () => undefined,
  open: async (databaseUrl, { maxConnections, idleConnectionMs, speedLayersOff }) => {
    const { openPostgres } = await import('./postgres/postgres-connection.js');
    const namedStatements = speedLayerOn('named-statements', speedLayersOff);
    let audit: AuditingDialect | undefined;
    const db = openPostgres(databaseUrl, { maxConnections, idleTimeoutMs: idleConnectionMs, namedStatements, wrap: (inner) => (audit = new AuditingDialect(inner, 'postgres')) });
    return {
      db,
      audit: audit!,
      // Claims only (see RunsRepository): a few connections, opened when first used.
      unflushed: openPostgres(databaseUrl, { maxConnections: 3, idleTimeoutMs: idleConnectionMs, unflushed: true, namedStatements }),
      lock: undefined,
    };
  },
  matchesIgnoringCase: (column, pattern) => sql<boolean>`${sql.ref(column)} ilike ${pattern} escape '\\'`,
  joinedPacks: (hash) =>
    sql<string | null>`(select string_agg(p.id || ' ' || p.text, '') from table_content_packs l join table_packs p on p.id = l.pack_id where l.hash = ${hash})`,
  tableSummaries: (column) =>
    sql<string | null>`(select json_agg(json_build_object('name', dt.name, 'columns', c.columns_json::json, 'rows', c.row_count) order by dt.position)::text
        from dataset_tables dt join table_contents c on c.hash = dt.hash where dt.dataset_seq = ${sql.ref(column)})`,
  databaseTime: (offsetMs) =>
    sql<string>`to_char((now() + make_interval(secs => cast(${offsetMs} as double precision) / 1000)) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`,
  sharingRows: (query) => query.forShare(),
  lockingRows: (query) => query.forUpdate(),
  claimingRows: (query) => query.forUpdate().skipLocked(),
  // The outbox migration's function: ids are given after commit, in commit order.
  numberCommittedEvents: async (db) => {
    const { rows } = await sql<{ numbered: string | number }>`select scenarist_number_events() as numbered`.execute(db);
    return Number(rows[0]?.numbered ?? 0);
  },
  // A transaction-level advisory lock on the key's 64-bit hash: released by the commit or rollback.
  holdKey: async (trx, key) => {
    await sql`select pg_advisory_xact_lock(hashtextextended(${key}, 0))`.execute(trx);
  },
};

const ADAPTERS: Readonly<Record<StoreDialect, DialectAdapter>> = { sqlite: SQLITE, postgres: POSTGRES };

export function dialectAdapter(dialect: StoreDialect): DialectAdapter {
  return ADAPTERS[dialect];
}

/** The adapter of the store a Kysely handle (or transaction) belongs to, told by Kysely's own adapter. */
export function dialectAdapterOf(db: Kysely<Database>): DialectAdapter {
  return db.getExecutor().adapter instanceof PostgresAdapter ? POSTGRES : SQLITE;
}
