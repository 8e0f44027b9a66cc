import { AsyncLocalStorage } from 'node:async_hooks';

/** An audit entry before the chain gives it a place: who did what to which ids, and the outcome. */
export interface AuditDraft {
  readonly action: string;
  readonly tokenId: string | null;
  readonly who: string;
  readonly address: string | null;
  sessionId: string | null;
  /** Target kind → id (`session`, `scenario`, `dataset`, ...), filled as the work learns them. */
  readonly targets: Record<string, string>;
  /** The outcome recorded with the write: the route's success status (or the status answered). */
  status: number;
}

/** A `{sid}` path value and the session it resolved to. */
export interface ResolvedSession {
  readonly ref: string;
  readonly session: { readonly id: string; readonly displayName: string; readonly createdAt: string };
}

/**
 * `pending`: nothing recorded yet; `claimed`: a transaction is writing the entry now; `written`: it
 * committed with the first write of the work; `closed`: the work is over and later writes made in
 * its async context (background work it started) are not its own.
 */
type AuditState = 'pending' | 'claimed' | 'written' | 'closed';

const scopes = new AsyncLocalStorage<AuditScope>();

/**
 * How many scopes were entered and not closed yet. While there is none the storage is disabled:
 * on Node 20 an enabled AsyncLocalStorage runs promise hooks on every promise of the process, 8 % of
 * the server's CPU under a status poll that never writes (measured in a CPU profile). Its next `run`
 * enables it again. Disabling forgets the stores of closed scopes only, whose writes are not theirs.
 * (`disable` is marked experimental in Node 20's documentation and has not changed since Node 14;
 * test/audit/audit-scope.test.ts holds the behaviour this relies on.)
 */
let enteredScopes = 0;

/**
 * One audited piece of work (an HTTP write, a CLI command, a prune). The store's audit hook
 * (`src/store/audit/auditing-dialect.ts`) writes the entry inside the first transaction of the work
 * that changes a row, just before that transaction commits, so the entry exists exactly when the
 * write does.
 */
export class AuditScope {
  private state: AuditState = 'pending';
  /** Counted in `enteredScopes`: entered by `runAudited` and not closed since. */
  private entered = false;
  /** The session and targets the work named when it began, before it noted the ids it creates. */
  readonly requested: Pick<AuditDraft, 'sessionId' | 'targets'>;
  /**
   * The session the work's `{sid}` named, as read once for its entry: the work's own resolution of the
   * same `{sid}` reuses it rather than reading it again (a round trip per write request on PostgreSQL).
   * Dropped by a session write of the work (see `forgetResolvedSession`).
   */
  resolvedSession: ResolvedSession | undefined;

  constructor(readonly draft: AuditDraft) {
    this.requested = { sessionId: draft.sessionId, targets: { ...draft.targets } };
  }

  /** Counts the scope as entered (once), before work runs in it. */
  enter(): void {
    if (this.entered || this.state === 'closed') return;
    this.entered = true;
    enteredScopes++;
  }

  /** The draft to write now, when no transaction has written or is writing it; marks it taken. */
  claim(): AuditDraft | undefined {
    if (this.state !== 'pending') return undefined;
    this.state = 'claimed';
    return this.draft;
  }

  /** After a claim: the entry committed (`true`), or its transaction rolled back and the next write carries it. */
  settle(committed: boolean): void {
    if (this.state === 'claimed') this.state = committed ? 'written' : 'pending';
  }

  /** Marks the entry written elsewhere (a worker thread ran the write under a copy of this scope). */
  markWritten(): void {
    if (this.state === 'pending') this.state = 'written';
  }

  get written(): boolean {
    return this.state === 'written';
  }

  /** Ends the work: nothing written from here on is recorded under it. Answers whether its entry was written. */
  close(): boolean {
    const written = this.state === 'written';
    this.state = 'closed';
    // Work it started and outlives it resolves `{sid}` afresh: the session may have changed since.
    this.resolvedSession = undefined;
    if (this.entered) {
      this.entered = false;
      if (--enteredScopes === 0) scopes.disable();
    }
    return written;
  }
}

/**
 * Runs `work` with `scope` as the audit scope of everything it awaits or starts, until the scope is
 * closed: work whose end the caller sees elsewhere (an HTTP request's answer) closes it there.
 */
export function runAudited<T>(scope: AuditScope, work: () => T): T {
  scope.enter();
  return scopes.run(scope, work);
}

/** Runs async `work` in `scope` and closes the scope when the work settles. */
export async function runAuditedWork<T>(scope: AuditScope, work: () => Promise<T>): Promise<T> {
  try {
    return await runAudited(scope, work);
  } finally {
    scope.close();
  }
}

/** The audit scope of the work running now, if any. */
export function activeAuditScope(): AuditScope | undefined {
  return scopes.getStore();
}

/** The session the running work's `{sid}` resolved to, when `ref` is that `{sid}`. */
export function recalledSession(ref: string): ResolvedSession['session'] | undefined {
  const resolved = scopes.getStore()?.resolvedSession;
  return resolved?.ref === ref ? resolved.session : undefined;
}

/** Forgets the running work's resolved session: the work changed sessions, so `{sid}` may name another now. */
export function forgetResolvedSession(): void {
  const scope = scopes.getStore();
  if (scope !== undefined) scope.resolvedSession = undefined;
}

/**
 * Names an id the running work creates (a new session, scenario, experiment, webhook, dataset key),
 * before the write that stores it, so its audit entry names it. A kind the request already names (the
 * source of a copy or derive) is recorded as `new_<kind>`. A no-op outside audited work.
 */
export function noteAuditTarget(kind: string, id: string): void {
  const scope = scopes.getStore();
  if (scope === undefined) return;
  const { draft } = scope;
  const existing = draft.targets[kind];
  draft.targets[existing === undefined || existing === id ? kind : `new_${kind}`] = id;
  if (kind === 'session' && draft.sessionId === null) draft.sessionId = id;
}

/** A copy of the running work's draft, as plain data for a worker thread that does the write (see `runCarriedAudit`). */
export function carriedAuditDraft(): AuditDraft | undefined {
  const scope = scopes.getStore();
  return scope === undefined || scope.written ? undefined : { ...scope.draft, targets: { ...scope.draft.targets } };
}

/**
 * Runs `work` (in a worker thread) under a scope made from a carried draft, and answers whether the
 * entry was written there, which the sender passes to `markWritten` on its own scope.
 */
export async function runCarriedAudit<T>(draft: AuditDraft | undefined, work: () => Promise<T>): Promise<{ value: T; audited: boolean }> {
  if (draft === undefined) return { value: await work(), audited: false };
  const scope = new AuditScope(draft);
  try {
    const value = await runAudited(scope, work);
    return { value, audited: scope.close() };
  } finally {
    // Closed when the work threw too (a second close changes nothing).
    scope.close();
  }
}
