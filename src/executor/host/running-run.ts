import type { ClaimedRun } from '../queue/claimed-run.js';
import type { StopReason } from '../queue/record-outcome.js';
import { InsightChannel } from '../run/insight-channel.js';
import { RunControl } from './run-control.js';
import type { WorkerTask } from './worker-task.js';

export type { StopReason } from '../queue/record-outcome.js';

/** One claimed run in flight on the pool, from launch until its task has settled. */
export class RunningRun {
  /** What it shares with its thread: progress, the abort flag. */
  readonly control = new RunControl();
  /** Its reports and log lines, sent by the worker thread in batches. */
  readonly insight = new InsightChannel();
  /** Aborting this makes piscina terminate the thread running the task. */
  readonly taskAbort = new AbortController();
  /** The last progress written to the database. */
  writtenProgress = 0;
  /** The last progress emitted as `run:progress` (the event log's last word on it). */
  announcedProgress = 0;
  /**
   * When a write last found its row still its own (renewing its lease, for leased runs, see
   * `LeaseHook`): a run starts with a fresh claim.
   */
  confirmedAt = Date.now();
  /**
   * Set once its thread has answered: its outcome is being recorded. Flushes leave it alone from then
   * on, since a write to its row would wait for the recording's row lock and hold up every other run's
   * renewal behind it.
   */
  answered = false;
  private reason: StopReason | undefined;
  private settledPromise: Promise<void> = Promise.resolve();
  private timeLimit: NodeJS.Timeout | undefined;

  constructor(readonly claimed: ClaimedRun) {}

  get scenarioId(): string {
    return this.claimed.job.scenarioId;
  }

  get sessionId(): string {
    return this.claimed.job.sessionId;
  }

  /** What the pool runs, and what must be transferred with it. */
  task(): { task: WorkerTask; transferList: WorkerTask['insight'][] } {
    const port = this.insight.port;
    return { task: { job: this.claimed.job, control: this.control.buffer, insight: port }, transferList: [port] };
  }

  get stopReason(): StopReason | undefined {
    return this.reason;
  }

  /**
   * Tracks the task's completion handling (it must never reject) and enforces the run's time limit:
   * once it has passed, the run is stopped like a cancelled one and ends FAILED with TIME_LIMIT. The
   * limit counts from now on this host's clock, so a skew between hosts cannot shorten it.
   */
  settleWith(done: Promise<void>, graceMs: number): void {
    this.settledPromise = done;
    this.timeLimit = setTimeout(() => void this.stop('time-limit', graceMs), this.claimed.timeLimitMs);
    this.timeLimit.unref();
    void done.finally(() => clearTimeout(this.timeLimit));
  }

  get settled(): Promise<void> {
    return this.settledPromise;
  }

  /**
   * Sets the abort flag (seen by the algorithm's next progress report, or at once by its abort
   * watcher), gives it `graceMs` to return, then has its thread terminated. Resolves once settled.
   * The first reason sticks: a run cancelled during a shutdown stays cancelled.
   */
  async stop(reason: StopReason, graceMs: number): Promise<void> {
    this.reason ??= reason;
    clearTimeout(this.timeLimit);
    this.control.requestAbort(reason);
    const timer = setTimeout(() => this.taskAbort.abort(new Error(`the run did not stop within ${graceMs} ms of its abort signal`)), graceMs);
    try {
      await this.settledPromise;
    } finally {
      clearTimeout(timer);
    }
  }
}
