import { mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';

/** Another process already owns this SQLite store: this one must not start. */
export class StoreLockedError extends Error {
  override readonly name = 'StoreLockedError';
}

/** Held while this process owns a SQLite store; `release` lets another open it. */
export interface StoreLock {
  /** The lock file, `<database>.lock`. */
  readonly path: string;
  /**
   * Whether the lock file at its path is still the one this process locked. Removed or replaced (by
   * hand, or by a clean-up of the data dir), a second process could lock the new file and write the
   * store beside this one.
   */
  held(): boolean;
  release(): void;
}

/**
 * Makes this process the one process of a SQLite store. Every part of the service that keeps state
 * in memory (status answered from memory, the local queue, restart recovery, the event feed woken by
 * its own commits) relies on it: a second process would write state the first never sees.
 *
 * The lock is a companion file `<database>.lock` held by a SQLite connection in exclusive locking
 * mode: the operating system holds the file lock as long as the connection is open and drops it when
 * the process dies, however it dies, so a crash never leaves a stale lock. The holder's pid is written
 * beside it (`<database>.lock.pid`) for the refusal's message; the lock itself is what counts.
 */
export function lockSqliteStore(databasePath: string): StoreLock {
  const path = `${databasePath}.lock`;
  const pidPath = `${path}.pid`;
  // The lock comes before the database, so it is the first thing made in a new data dir.
  mkdirSync(dirname(databasePath), { recursive: true });
  const lock = new BetterSqlite3(path, { timeout: 0 });
  try {
    lock.pragma('locking_mode = EXCLUSIVE');
    // The first write takes the exclusive lock; in this mode it is kept until the connection closes.
    lock.exec('begin exclusive');
    lock.exec('create table if not exists holder (pid integer not null)');
    lock.exec('commit');
  } catch (err) {
    lock.close();
    const code = (err as { code?: unknown }).code;
    if (code === 'SQLITE_BUSY' || code === 'SQLITE_LOCKED') throw new StoreLockedError(refusal(databasePath, holderPid(pidPath)));
    throw err;
  }
  writeFileSync(pidPath, `${process.pid}\n`);
  const locked = statSync(path);
  return {
    path,
    held: () => {
      try {
        const now = statSync(path);
        return now.dev === locked.dev && now.ino === locked.ino;
      } catch {
        return false;
      }
    },
    release: () => {
      if (holderPid(pidPath) === String(process.pid)) rmSync(pidPath, { force: true });
      lock.close();
    },
  };
}

function refusal(databasePath: string, pid: string | undefined): string {
  return (
    `the data dir ${dirname(databasePath)} is in use by another scenarist process (pid ${pid ?? 'unknown'}) ` +
    `holding ${databasePath}: a SQLite store has exactly one scenarist process; many processes need PostgreSQL`
  );
}

function holderPid(pidPath: string): string | undefined {
  try {
    return readFileSync(pidPath, 'utf8').trim() || undefined;
  } catch {
    return undefined;
  }
}
