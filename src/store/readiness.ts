import { stat } from 'node:fs/promises';
import { sql, type Kysely } from 'kysely';
import { pendingMigrations } from './migrations/migrate.js';
import type { Store } from './store.js';

/**
 * The answer of `GET /health/ready`: ready, or the first reason it is not. The reason is public (the
 * probe needs no token), so it never carries a driver's message; `cause` is that error, for the log.
 * `notes` are what a ready process does less well than it could (the machine refused something at
 * start-up): informational, they never make it not ready.
 */
export type ReadyAnswer =
  | { readonly ready: true; readonly notes?: readonly string[]; readonly checks?: readonly ReadyCheck[] }
  | { readonly ready: false; readonly reason: string; readonly cause?: unknown };

/** A part that can be unusable while the process serves (a schedule's drop folder): said, never not-ready. */
export interface ReadyCheck {
  readonly name: string;
  readonly ok: boolean;
  readonly detail: string;
}

const DATABASE_SILENT = 'the database does not answer';

const SHUTTING_DOWN: ReadyAnswer = { ready: false, reason: 'shutting down' };

interface FileIdentity {
  readonly path: string;
  readonly dev: number;
  readonly ino: number;
}

/**
 * Whether this process should get traffic. Not from the moment a graceful shutdown starts (so a load
 * balancer stops sending requests while the drain finishes them), nor when the database does not
 * answer, has migrations this build expects but has not run, or (SQLite) when this process no longer
 * holds the store: its lock file, or the database file it opened, is no longer the one at its path
 * (deleted or replaced under it: another process could open the store beside it, or writes be lost).
 */
export class Readiness {
  private shuttingDown = false;
  /** Migrations, once current, stay so for this build: checked until they are. */
  private migrationsCurrent = false;

  private readonly ready: ReadyAnswer;
  private readonly checkers: (() => Promise<readonly ReadyCheck[]>)[] = [];

  private constructor(
    private readonly store: Store,
    private readonly file: FileIdentity | undefined,
    notes: readonly string[],
  ) {
    this.ready = notes.length === 0 ? { ready: true } : { ready: true, notes: Object.freeze([...notes]) };
  }

  /** `notes`: what ready answers carry (see `ReadyAnswer`), fixed at start-up. */
  static async of(store: Store, databaseUrl: string, notes: readonly string[] = []): Promise<Readiness> {
    const path = store.adapter.databaseFile(databaseUrl);
    if (path === undefined) return new Readiness(store, undefined, notes);
    const { dev, ino } = await stat(path);
    return new Readiness(store, { path, dev, ino }, notes);
  }

  /** Adds checks each ready answer carries (`checks`); they never make the process not ready. */
  addChecks(checker: () => Promise<readonly ReadyCheck[]>): void {
    this.checkers.push(checker);
  }

  /** From now on, not ready (graceful shutdown). */
  shutdownStarted(): void {
    this.shuttingDown = true;
  }

  async check(): Promise<ReadyAnswer> {
    if (this.shuttingDown) return SHUTTING_DOWN;
    const probed = await this.probe();
    const checks = probed.ready && this.checkers.length > 0 ? (await Promise.all(this.checkers.map((c) => c()))).flat() : [];
    const answer: ReadyAnswer = checks.length > 0 && probed.ready ? { ...probed, checks } : probed;
    // A shutdown that started while the probe awaited the database wins: no 200 leaves after it.
    return this.shuttingDown ? SHUTTING_DOWN : answer;
  }

  private async probe(): Promise<ReadyAnswer> {
    let pending: readonly string[] = [];
    try {
      await sql`select 1`.execute(this.store.db);
      if (!this.migrationsCurrent) pending = await pendingMigrations(this.store.db as Kysely<unknown>, this.store.dialect);
    } catch (err) {
      return { ready: false, reason: DATABASE_SILENT, cause: err };
    }
    if (pending.length > 0) return { ready: false, reason: `migrations not run: ${pending.join(', ')} (run scenarist migrate)` };
    this.migrationsCurrent = true;
    const lock = this.store.lock;
    if (lock !== undefined && !lock.held()) {
      return { ready: false, reason: `the store's lock file ${lock.path} is no longer the one this process holds; restart it` };
    }
    if (this.file !== undefined && !(await this.holdsFile(this.file))) {
      return { ready: false, reason: `the database file ${this.file.path} is no longer the one this process opened` };
    }
    return this.ready;
  }

  private async holdsFile(file: FileIdentity): Promise<boolean> {
    try {
      const now = await stat(file.path);
      return now.dev === file.dev && now.ino === file.ino;
    } catch {
      return false;
    }
  }
}
