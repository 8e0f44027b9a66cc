import type { ClaimedRun } from '../queue/claimed-run.js';
import { RunControl } from './run-control.js';

/** Why a run was stopped before it finished on its own. */
export type StopReason = 'cancel' | 'shutdown';

/** One claimed run in flight on the pool, from launch until its task has settled. */
export class RunningRun {
  readonly control = new RunControl();
  /** Aborting this makes piscina terminate the thread running the task. */
  readonly taskAbort = new AbortController();
  /** The last progress written to the database. */
  writtenProgress = 0;
  private reason: StopReason | undefined;
  private settledPromise: Promise<void> = Promise.resolve();

  constructor(readonly claimed: ClaimedRun) {}

  get scenarioId(): string {
    return this.claimed.job.scenarioId;
  }

  get sessionId(): string {
    return this.claimed.job.sessionId;
  }

  get stopReason(): StopReason | undefined {
    return this.reason;
  }

  /** Tracks the task's completion handling; it must never reject. */
  settleWith(done: Promise<void>): void {
    this.settledPromise = done;
  }

  get settled(): Promise<void> {
    return this.settledPromise;
  }

  /**
   * Sets the abort flag (seen by the algorithm's next progress report, or at once by its abort
   * watcher), gives it `graceMs` to return, then has its thread terminated. Resolves once settled.
   */
  async stop(reason: StopReason, graceMs: number): Promise<void> {
    this.reason ??= reason;
    this.control.requestAbort();
    const timer = setTimeout(() => this.taskAbort.abort(new Error(`the run did not stop within ${graceMs} ms of its abort signal`)), graceMs);
    try {
      await this.settledPromise;
    } finally {
      clearTimeout(timer);
    }
  }
}
