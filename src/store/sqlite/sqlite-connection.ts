import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, SqliteDialect, type Dialect, type SqliteDatabase } from 'kysely';
import type { Database } from '../database.js';
import { registerAuditHash } from './audit-hash-function.js';

/** Distinct statements kept prepared; the service issues far fewer shapes than this. */
const STATEMENT_CACHE_SIZE = 512;

export interface SqliteConnectionOptions {
  /** Keep statements prepared by their text (the `statement-cache` speed layer; default on). */
  readonly statementCache?: boolean;
  /** A layer around the dialect (the audit hook). */
  readonly wrap?: (dialect: Dialect) => Dialect;
}

/** Opens (creating when needed) the SQLite file in WAL mode with foreign keys enforced. */
export function openSqlite(path: string, { statementCache = true, wrap = (dialect) => dialect }: SqliteConnectionOptions = {}): Kysely<Database> {
  mkdirSync(dirname(path), { recursive: true });
  const sqlite = new BetterSqlite3(path);
  // WAL lets readers (worker threads, pollers) proceed while a write commits; NORMAL sync is durable
  // across process crashes in WAL mode and keeps scenario creation fast.
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  // Any connection may write audited work, and the audit append hashes in SQL.
  registerAuditHash(sqlite);
  const database = withImmediateBegin(statementCache ? withStatementCache(sqlite) : sqlite);
  return new Kysely<Database>({ dialect: wrap(new SqliteDialect({ database })) });
}

/**
 * Transactions take the write lock as they begin. Several connections write the file (the main thread,
 * the data threads storing uploads), and a transaction begun the default way
 * that read first cannot become a writer once another connection has committed meanwhile
 * (SQLITE_BUSY_SNAPSHOT, which `busy_timeout` does not wait out); begun IMMEDIATE it waits its turn.
 */
function withImmediateBegin(database: SqliteDatabase): SqliteDatabase {
  return {
    close: () => database.close(),
    prepare: (sql: string) => database.prepare(sql === 'begin' ? 'begin immediate' : sql),
  };
}

/**
 * Kysely prepares every query anew; preparing costs more than running a small query, so statements
 * are kept by their SQL text (the values are bound per run, so one statement serves every call).
 */
function withStatementCache(sqlite: BetterSqlite3.Database): SqliteDatabase {
  const prepared = new Map<string, BetterSqlite3.Statement>();
  return {
    close: () => {
      prepared.clear();
      sqlite.close();
    },
    prepare: (sql: string) => {
      let statement = prepared.get(sql);
      if (statement === undefined) {
        statement = sqlite.prepare(sql);
        if (prepared.size >= STATEMENT_CACHE_SIZE) prepared.delete(prepared.keys().next().value!);
        prepared.set(sql, statement);
      }
      return statement;
    },
  };
}
