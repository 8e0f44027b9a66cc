import type { RunJob } from '../run/job.js';

/** A scenario this executor has moved to PROCESSING, with the token that proves it owns the run. */
export interface ClaimedRun {
  /** Carries the run's `deadline` (epoch ms, by the database clock at claim plus the time limit). */
  readonly job: RunJob;
  readonly tag: string;
  /** Starts since the client queued it: 1, or 2 after one interruption. */
  readonly attempt: number;
  /**
   * Stored in `lease_owner` at claim. Every later write of the run requires it, so a run that was
   * cancelled, deleted or recovered elsewhere can never write (or resurrect) its row.
   */
  readonly runToken: string;
  /** The run's time limit: past it, it is stopped and ends FAILED with code TIME_LIMIT. */
  readonly timeLimitMs: number;
}
