import type { RunRef } from '../events.js';

/**
 * What this executor knows of the queue outside some sessions without looking: that nothing is
 * QUEUED there, or that exactly one scenario is. With it a dispatch skips looks that could only
 * come back empty (the search for a second session's head after claiming the next run of a long
 * single-session queue scans every row of that session) and claims a lone newcomer directly.
 *
 * Sound because this executor hears of every row that becomes QUEUED (it alone takes work from
 * this queue and is told of each run, autorun and recovery): news outside the proven sessions
 * updates the knowledge, or drops it once it is more than one scenario. A look that raced with
 * news proves nothing.
 */
export class QuietQueue {
  /** Sessions the knowledge says nothing about; undefined when nothing is known. */
  private proven: ReadonlySet<string> | undefined;
  /** The one scenario QUEUED outside `proven`, if any. */
  private lone: RunRef | undefined;
  private news = 0;

  /** `enabled` false (a benchmark's switch): nothing is ever proved, so every dispatch looks. */
  constructor(private readonly enabled = true) {}

  /** Whether a look excluding `sessions` can only find nothing. */
  isQuiet(sessions: readonly string[]): boolean {
    if (!this.covers(sessions)) return false;
    return this.lone === undefined || sessions.includes(this.lone.sessionId);
  }

  /** The only scenario QUEUED outside `sessions` and `ids`, when known (hence the queue's head there). */
  loneHead(sessions: readonly string[], ids: readonly string[]): RunRef | undefined {
    const lone = this.lone;
    if (lone === undefined || !this.covers(sessions) || sessions.includes(lone.sessionId) || ids.includes(lone.scenarioId)) return undefined;
    return lone;
  }

  /**
   * The one session outside `sessions` that may hold QUEUED scenarios, when that is all that is known
   * to be queued there (no lone newcomer elsewhere): a session going on with its queue after its run
   * ended. Its head is then the only candidate outside `sessions`, though not necessarily the queue's
   * head (an excluded session may hold older rows).
   */
  onlySession(sessions: readonly string[]): string | undefined {
    if (this.proven === undefined || this.lone !== undefined) return undefined;
    let only: string | undefined;
    for (const session of this.proven) {
      if (sessions.includes(session)) continue;
      if (only !== undefined) return undefined;
      only = session;
    }
    return only;
  }

  /** Taken before a look at the queue (or a claim); hand it to `nothingOutside` with what was proved. */
  beforeLook(): number {
    return this.news;
  }

  /**
   * Since `look`, nothing is queued outside `sessions`: the look (excluding those sessions and no
   * scenario ids) found nothing, or only the one scenario that was then claimed.
   */
  nothingOutside(look: number, sessions: readonly string[]): void {
    if (!this.enabled || look !== this.news) return;
    this.proven = new Set(sessions);
    this.lone = undefined;
  }

  /** A scenario became QUEUED. */
  queued(ref: RunRef): void {
    this.news++;
    if (this.proven === undefined || this.proven.has(ref.sessionId)) return;
    if (this.lone === undefined) this.lone = ref;
    else this.forgetKnowledge();
  }

  /**
   * A scenario was claimed outside a look (a run thread went on with its session): no longer queued,
   * it is no longer the lone one.
   */
  claimed(ref: RunRef): void {
    if (this.lone?.scenarioId === ref.scenarioId) this.lone = undefined;
  }

  /** Anything may have changed (a cancellation that may not have removed its rows, a lost claim). */
  forget(): void {
    this.news++;
    this.forgetKnowledge();
  }

  private covers(sessions: readonly string[]): boolean {
    if (this.proven === undefined) return false;
    for (const session of this.proven) if (!sessions.includes(session)) return false;
    return true;
  }

  private forgetKnowledge(): void {
    this.proven = undefined;
    this.lone = undefined;
  }
}
