import type { MessagePort } from 'node:worker_threads';
import type { ClaimedRun } from '../queue/claimed-run.js';
import type { Announcement } from '../queue/record-outcome.js';
import type { TimeLimits } from '../queue/time-limits.js';

/**
 * What a task of the local executor carries when its run thread records its runs itself and goes on
 * with its session's queue (see `run-chain.ts`): the port the thread tells the main thread what
 * happened through, the shared claim hold, the time limits of the runs it claims, and the run claimed
 * by the main thread that the chain starts with.
 */
export interface ChainLink {
  readonly port: MessagePort;
  readonly hold: SharedArrayBuffer;
  readonly timeLimits: TimeLimits;
  readonly first: ClaimedRun;
  /** How long the thread waits for its session's next run once nothing of it is claimable. */
  readonly lingerMs: number;
}

/** A run the thread claimed with the end of the previous one: its control block and insight port go to the main thread. */
export interface ChainedRun {
  readonly claimed: ClaimedRun;
  readonly control: SharedArrayBuffer;
  readonly insight: MessagePort;
}

/** A line the thread's bookkeeping logs, written by the main thread's logger (the service keeps one log). */
export interface RelayedLogLine {
  readonly level: 'warn' | 'error';
  readonly fields: Record<string, unknown>;
  readonly message: string;
}

/** From the run thread to the main thread, in this order for each run. */
export type ChainMessage =
  /**
   * The run is over and reported progress or insight: the main thread logs its last progress and
   * writes its last reports and log lines, then answers `ChainProceed`; only then is its end written
   * (so they come before its life-cycle event). A run that reported nothing skips this round trip.
   */
  | { readonly kind: 'ending'; readonly scenarioId: string; readonly status: 'COMPLETE' | 'FAILED' }
  /**
   * The run's end is recorded (or could not be): what to announce, and the session's next run when it
   * was claimed with it. Without one the thread lingers for a while, waiting for a `ChainWord` `claim`.
   */
  | { readonly kind: 'ended'; readonly scenarioId: string; readonly announcement?: Announcement; readonly next?: ChainedRun; readonly log: readonly RelayedLogLine[] }
  /** Lingering, the thread claimed its session's next run when told one was queued. */
  | { readonly kind: 'claimed'; readonly next: ChainedRun }
  /** Lingering, the thread found nothing of its session to claim when told one was queued (another took it, or it does not head the queue). */
  | { readonly kind: 'unclaimed' }
  /** The chain is over: nothing follows. */
  | { readonly kind: 'done' };

/** From the main thread to a chain's thread. */
export type ChainWord =
  /** The run's last progress and insight are logged; its end may be written. */
  | { readonly kind: 'proceed' }
  /** A run of the session was queued: claim it if it heads the queue (a lingering chain). */
  | { readonly kind: 'claim' }
  /** Another session needs the thread: stop lingering. */
  | { readonly kind: 'release' };
