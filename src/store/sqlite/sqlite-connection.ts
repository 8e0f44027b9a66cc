import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import type { Database } from '../database.js';

/** Opens (creating when needed) the SQLite file in WAL mode with foreign keys enforced. */
export function openSqlite(path: string): Kysely<Database> {
  mkdirSync(dirname(path), { recursive: true });
  const sqlite = new BetterSqlite3(path);
  // WAL lets readers (worker threads, pollers) proceed while a write commits; NORMAL sync is durable
  // across process crashes in WAL mode and keeps scenario creation fast.
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  sqlite.pragma('busy_timeout = 5000');
  return new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
}
