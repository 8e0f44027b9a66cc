import type { Kysely } from 'kysely';
import type { Database } from '../database.js';
import type { DialectAdapter } from '../dialect.js';
import { claimRun, type ClaimedRow } from './claim-run.js';

/** The session whose next run to claim once a run of it has ended, and the token (and lease) of that claim. */
export interface NextClaimRequest {
  readonly sessionId: string;
  readonly runToken: string;
  readonly leaseMs?: number;
  /** `max_running_per_session`: how many of the session may be PROCESSING at once (default 1). */
  readonly maxRunning?: number;
}

/** A run's end as written (false: the row was no longer this run's), and the next run claimed with it. */
export interface EndedThenClaimed {
  readonly written: boolean;
  readonly next?: ClaimedRow;
}

/**
 * Complete-and-claim-next: writes a run's end (`end`: `completeRun` or `failRun`), then, in the same
 * transaction, claims the head of the queue when it belongs to the run's session. A session's queue
 * then costs one commit per run and no wake-up between its runs. Nothing is claimed when the end did
 * not apply (the row was no longer this run's).
 */
export function endThenClaimNext(db: Kysely<Database>, dialect: DialectAdapter, end: (trx: Kysely<Database>) => Promise<boolean>, next: NextClaimRequest): Promise<EndedThenClaimed> {
  return db.transaction().execute(async (trx) => {
    if (!(await end(trx))) return { written: false };
    // The run just ended holds no PROCESSING row any more: the claim's per-session rule sees that
    // within this transaction, and any other writer waits for its commit. Its slot is the next run's.
    const claimed = await claimRun(trx, dialect, { nextInSession: next.sessionId }, next);
    return claimed ? { written: true, next: claimed } : { written: true };
  });
}
