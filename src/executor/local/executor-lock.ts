import BetterSqlite3 from 'better-sqlite3';

/** Another process already runs scenarios on this SQLite store: this one must not start. */
export class ExecutorLockedError extends Error {
  override readonly name = 'ExecutorLockedError';
}

/** Held while this process is the one executor of a SQLite store; `release` lets another start. */
export interface ExecutorLock {
  release(): void;
}

/**
 * Makes this process the only one running scenarios on a SQLite store. The local executor keeps its
 * queue state and restart recovery on the assumption that it is alone: a second executor would
 * re-queue the first one's live runs as "interrupted" and serve stale status from memory.
 *
 * The lock is a companion file `<database>.executor-lock` held by a SQLite connection in exclusive
 * locking mode: the operating system holds the file lock for as long as the connection is open and
 * drops it when the process dies, however it dies, so a crash never leaves a stale lock behind.
 * SQLite honours the lock between connections of one process too (a second executor in-process).
 */
export function lockSqliteExecutor(databasePath: string): ExecutorLock {
  const path = `${databasePath}.executor-lock`;
  const lock = new BetterSqlite3(path, { timeout: 0 });
  try {
    lock.pragma('locking_mode = EXCLUSIVE');
    // The first write takes the exclusive lock; in this mode it is kept until the connection closes.
    lock.exec('create table if not exists executor (pid integer not null, started_at text not null)');
    lock.exec('begin exclusive');
    lock.prepare('delete from executor').run();
    lock.prepare('insert into executor (pid, started_at) values (?, ?)').run(process.pid, new Date().toISOString());
    lock.exec('commit');
  } catch (err) {
    lock.close();
    if ((err as { code?: unknown }).code === 'SQLITE_BUSY' || (err as { code?: unknown }).code === 'SQLITE_LOCKED') {
      throw new ExecutorLockedError(
        `another scenarist process already runs scenarios on ${databasePath}; stop it first, or start this one with --workers 0`,
      );
    }
    throw err;
  }
  return { release: () => lock.close() };
}
