import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { ReadThroughCache } from '../cache/read-through-cache.js';
import type { Database } from '../store/database.js';
import { isUniqueViolation } from '../store/errors.js';
import { planProtectionOf } from '../store/plan-protection.js';
import { isFinished } from '../model/run-state/state-machine.js';
import type { SessionRecord } from '../store/sessions-repository.js';
import type { Store } from '../store/store.js';
import { checkDisplayName, SESSION_ID } from './display-name.js';
import { errors } from '../error-factories.js';
import { forgetResolvedSession, noteAuditTarget, recalledSession } from '../model/audit/audit-scope.js';

export const MAIN_SESSION_NAME = 'main';

export interface SessionView {
  readonly id: string;
  readonly display_name: string;
}

export interface SessionList {
  readonly sessions: SessionView[];
  readonly default: string;
}

/** What the session service needs from the rest of the system, given by the app factory. */
export interface SessionHooks {
  /** Stops queued and running scenarios of a session before it is removed. */
  cancelSession(sessionId: string): Promise<void>;
  /** Fills a freshly auto-created `main` session (the example dataset). */
  seedMainSession(sessionId: string): Promise<void>;
  /** The session's row is gone, and with it everything it held (caches forget it). */
  sessionDeleted(sessionId: string): void;
  /** The session has a new display name. */
  sessionRenamed?(sessionId: string, displayName: string): void;
}

export interface SessionServiceOptions {
  /**
   * Keep `{sid}` resolutions and the session list in memory. Only for a process that is the single writer of its store
   * (`runtime/single-writer.ts`): every session write here clears them, a write elsewhere would not.
   */
  readonly cacheResolution?: boolean;
}

/** The key of the one entry of the session list's cache. */
const EVERY_SESSION = 'every session';

/** Distinct `{sid}` spellings remembered (ids in any letter case, names); misses are not kept. */
const RESOLUTION_CAPACITY = 10_000;

const view = (s: SessionRecord): SessionView => ({ id: s.id, display_name: s.displayName });

/** Sessions: create, copy, rename, delete, resolve by id or display-name alias, and the default `main`. */
export class SessionService {
  private readonly resolved: ReadThroughCache<string, SessionRecord> | undefined;
  /** The list of every session, one entry (held by the same single writer as `resolved`). */
  private readonly everySession: ReadThroughCache<typeof EVERY_SESSION, readonly SessionRecord[]> | undefined;

  constructor(
    private readonly store: Store,
    private readonly hooks: SessionHooks,
    options: SessionServiceOptions = {},
  ) {
    this.resolved = options.cacheResolution ? new ReadThroughCache(RESOLUTION_CAPACITY) : undefined;
    this.everySession = options.cacheResolution ? new ReadThroughCache(1) : undefined;
  }

  /** Resolves a `{sid}` path value: the UUID, or a display name as alias. */
  async resolve(ref: string): Promise<SessionRecord> {
    const recalled = recalledSession(ref);
    if (recalled) return recalled;
    const session = this.resolved ? await this.resolved.read(ref, () => this.find(ref)) : await this.find(ref);
    if (!session) throw errors.sessionNotFound(ref);
    return session;
  }

  async list(): Promise<SessionList> {
    let sessions = await this.listed();
    if (sessions.length === 0) {
      await this.ensureMain();
      sessions = await this.listed();
    }
    // A session is always present after ensureMain; the first listed is the earliest created.
    return { sessions: sessions.map(view), default: sessions[0]!.id };
  }

  /**
   * Every session in creation order; from memory where resolutions are cached (a single writer),
   * since `GET /health` lists them on every probe. Every session write here forgets it.
   */
  private listed(): Promise<readonly SessionRecord[]> {
    if (!this.everySession) return this.store.sessions.list();
    return this.everySession.read(EVERY_SESSION, () => this.store.sessions.list()).then((sessions) => sessions ?? []);
  }

  async create(displayName: string): Promise<SessionList> {
    checkDisplayName(displayName, 'display_name');
    await this.writing(() => this.insertNamed(displayName));
    return this.list();
  }

  async copy(ref: string, newDisplayName: string): Promise<SessionList> {
    checkDisplayName(newDisplayName, 'new_display_name');
    const source = await this.resolve(ref);
    await this.writing(() =>
      this.store.db.transaction().execute(async (trx) => {
        // Locked until the copy commits: a concurrent delete of the source waits for it, or went first
        // and the copy is refused, never committed empty.
        if (!(await this.store.sessions.lockForCopy(source.id, trx))) throw errors.sessionNotFound(ref);
        const id = await this.insertNamed(newDisplayName, trx);
        await this.store.datasets.copySession(source.id, id, trx);
        // COMPLETE and FAILED copies keep result, KPIs, error and run log; QUEUED and PROCESSING ones
        // are copied as CREATED. The source is untouched.
        await this.store.scenarios.copySession(source.id, id, randomUUID, isFinished, trx);
      }),
    );
    return this.list();
  }

  async rename(ref: string, displayName: string): Promise<SessionView> {
    checkDisplayName(displayName, 'display_name');
    const session = await this.resolve(ref);
    if (session.displayName === displayName) return view(session);
    try {
      await this.writing(() => this.store.sessions.rename(session.id, displayName));
    } catch (err) {
      if (isUniqueViolation(err)) throw errors.sessionNameTaken(displayName);

      throw err;
    }
    this.hooks.sessionRenamed?.(session.id, displayName);
    return { id: session.id, display_name: displayName };
  }

  /**
   * Deletes the session and everything it holds, unless it has a published plan. That is checked
   * before its runs are cancelled (a refused delete changes nothing); a plan published meanwhile is
   * met by the store's trigger at the delete itself (migration 0016).
   */
  async delete(ref: string): Promise<SessionList> {
    const session = await this.resolve(ref);
    if (await this.store.plans.current(session.id)) throw errors.planSessionProtected(ref);
    await this.hooks.cancelSession(session.id);
    // Of concurrent deletes, only the one whose DELETE removed the row succeeds.
    const deleted = await this.writing(() =>
      this.store.sessions.delete(session.id).catch((err: unknown) => {
        if (planProtectionOf(err) === 'session') throw errors.planSessionProtected(ref);
        throw err;
      }),
    );
    if (!deleted) throw errors.sessionNotFound(ref);
    this.hooks.sessionDeleted(session.id);
    return this.list();
  }

  /** Creates `main` when no session exists; several processes may race here, one wins. */
  async ensureMain(): Promise<void> {
    if ((await this.store.sessions.count()) > 0) return;
    const id = randomUUID();
    try {
      await this.writing(() => this.store.sessions.insert({ id, displayName: MAIN_SESSION_NAME, createdAt: new Date().toISOString() }));
    } catch (err) {
      if (isUniqueViolation(err)) return; // another process created it first
      throw err;
    }
    await this.hooks.seedMainSession(id);
  }

  private async find(ref: string): Promise<SessionRecord | undefined> {
    return (
      (SESSION_ID.test(ref) ? await this.store.sessions.findById(ref.toLowerCase()) : undefined) ?? (await this.store.sessions.findByName(ref))
    );
  }

  /**
   * Runs a session write, then forgets every cached resolution: a rename or delete changes what a
   * name or id resolves to, and a new session may take a name (or an id) a cached spelling matched.
   */
  private async writing<T>(write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } finally {
      this.resolved?.clear();
      this.everySession?.clear();
      forgetResolvedSession();
    }
  }

  private async insertNamed(displayName: string, db?: Kysely<Database>): Promise<string> {
    const id = randomUUID();
    noteAuditTarget('session', id);
    try {
      await this.store.sessions.insert({ id, displayName, createdAt: new Date().toISOString() }, db);
    } catch (err) {
      if (isUniqueViolation(err)) throw errors.sessionNameTaken(displayName);

      throw err;
    }
    return id;
  }
}
