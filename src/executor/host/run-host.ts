import type { Logger } from 'pino';
import { coerceError } from '../../errors.js';
import type { RunsRepository } from '../../store/runs-repository.js';
import type { RunEvents, RunRef } from '../events.js';
import type { LiveRun } from '../executor.js';
import type { WorkerPool } from './worker-pool.js';
import type { ClaimedRun } from '../queue/claimed-run.js';
import { keyOf, recordOutcome, type NextClaim, type Recorded, type StopReason } from '../queue/record-outcome.js';
import type { RunOutcome } from '../run/job.js';
import { logLastProgress } from './last-progress.js';
import { RunningRun } from './running-run.js';

/**
 * Leased runs (the distributed executor): each progress flush also renews a run's lease when it is
 * due, and a run whose row is no longer its own (reclaimed after this process was cut off) is stopped.
 */
export interface LeaseHook {
  /** How long a lease runs past the database's now. */
  readonly leaseMs: number;
  /** How often a run's lease is renewed, progress or not. */
  readonly renewMs: number;
}

export interface RunHostOptions {
  readonly events: RunEvents;
  readonly log: Logger;
  readonly runs: RunsRepository;
  /** The worker threads, asked for at each launch (the pool starts on first use). */
  readonly pool: () => WorkerPool;
  /** How long a stopped run may take to return after its abort signal before its thread is stopped. */
  readonly cancelGraceMs: number;
  /** How often live progress (and, with `lease`, leases) is written. */
  readonly progressFlushMs: number;
  readonly lease?: LeaseHook;
}

/**
 * What an executor decides as a session's runs go on here, one after another (see `RunHost.runSession`).
 */
export interface SessionRunHooks {
  /**
   * Asked as each run of `sessionId` ends: whether (and how) the session's next run is claimed in the
   * transaction that records the end (complete-and-claim-next), or undefined to claim nothing.
   */
  readonly claimNext: (sessionId: string) => NextClaim | undefined;
  /**
   * A run claimed with its predecessor's end: whether it starts here. When not (the executor is
   * closing, or a cancel of it is under way), the executor has dealt with the claimed row and the
   * sequence ends.
   */
  readonly accept: (next: ClaimedRun) => boolean;
  /**
   * A run's outcome is recorded and announced, and it no longer counts here (an accepted next run
   * already does), in the same turn: a slot it freed is seen free at once.
   */
  readonly ended: (outcome: HostedOutcome) => void;
}

/** How a hosted run ended, once its outcome was recorded (or could not be). */
export interface HostedOutcome {
  readonly run: RunningRun;
  /** The session's next run, claimed in the transaction that recorded this one's end. */
  readonly next?: ClaimedRun;
}

const refOf = (run: RunningRun): RunRef => ({ scenarioId: run.scenarioId, sessionId: run.sessionId });

function threadFailure(thrown: unknown): RunOutcome {
  const err = coerceError(thrown);
  return { status: 'FAILED', message: `the worker thread running the algorithm failed: ${err.message}`, stack: err.stack };
}

/**
 * How often a run without a lease (the local executor) writes its progress even when it did not move:
 * the write finds out whether its row is still its own (see `flush`), so a run cancelled in the moment
 * between its claim and its launch stops within this, even if it never reports progress.
 */
const OWNERSHIP_CHECK_MS = 1_000;

const NO_HOOKS: SessionRunHooks = { claimNext: () => undefined, accept: () => false, ended: () => {} };

/**
 * What both executors do with a run once claimed, whatever decided to claim it: launch it on a worker
 * thread, keep its live state, flush its progress, reports and log lines (renewing its lease with a
 * `LeaseHook`), stop it, record its outcome, and go on with its session's next run when that was
 * claimed with the outcome. A run's end is recorded here only (`record`), on this thread, and its
 * session's next run is launched here only (`runSession`): both executors take the same route from
 * a run's end to the next. Which runs to claim, and when, is the executor's.
 */
export class RunHost {
  /** Runs from launch until their outcome is recorded, by scenario id. */
  private readonly running = new Map<string, RunningRun>();
  private flushTimer: NodeJS.Timeout | undefined;
  private flushing = false;

  constructor(private readonly options: RunHostOptions) {}

  get size(): number {
    return this.running.size;
  }

  /** The sessions with a run here. */
  sessions(): string[] {
    return [...this.running.values()].map((run) => run.sessionId);
  }

  /** How many runs of `sessionId` are here. */
  runningIn(sessionId: string): number {
    let count = 0;
    for (const run of this.running.values()) if (run.sessionId === sessionId) count++;
    return count;
  }

  /** The sessions with at least `count` runs here. */
  sessionsWith(count: number): string[] {
    const counts = new Map<string, number>();
    for (const run of this.running.values()) counts.set(run.sessionId, (counts.get(run.sessionId) ?? 0) + 1);
    return [...counts].filter(([, n]) => n >= count).map(([session]) => session);
  }

  has(scenarioId: string): boolean {
    return this.running.has(scenarioId);
  }

  live(scenarioId: string): LiveRun | undefined {
    const run = this.running.get(scenarioId);
    return run && { sessionId: run.sessionId, tag: run.claimed.tag, progress: run.control.progress, report: run.insight.buffer.report };
  }

  /** Starts writing live progress every `progressFlushMs`. */
  startFlushing(): void {
    if (this.flushTimer) return;
    this.flushTimer = setInterval(() => void this.flush(), this.options.progressFlushMs);
    this.flushTimer.unref();
  }

  stopFlushing(): void {
    clearInterval(this.flushTimer);
    this.flushTimer = undefined;
  }

  /**
   * Runs `first` (just claimed) on a worker thread and records its outcome, then, while each run's
   * end claimed its session's next run (`hooks.claimNext`) and the executor accepts it
   * (`hooks.accept`), runs that one the same way. `hooks.ended` is called after each run. Resolves
   * with the last run of the sequence once it is recorded; never rejects.
   */
  async runSession(first: ClaimedRun, hooks: SessionRunHooks = NO_HOOKS): Promise<RunningRun> {
    let current = this.launch(first, hooks.claimNext);
    for (;;) {
      const { next } = await current.recorded;
      // In one turn: the run no longer counts, the next one does, and `ended` runs, so that a slot
      // the next run takes is never seen free.
      this.running.delete(current.run.scenarioId);
      const accepted = next !== undefined && hooks.accept(next) ? this.launch(next, hooks.claimNext) : undefined;
      this.ended(hooks.ended, current.run, next);
      if (accepted === undefined) return current.run;
      current = accepted;
    }
  }

  /**
   * Counts `claimed` here from now on, announces its start and posts it to the pool; `recorded`
   * settles once its outcome is recorded (see `record`).
   */
  private launch(claimed: ClaimedRun, claimNext: SessionRunHooks['claimNext']): { run: RunningRun; recorded: Promise<Recorded> } {
    const run = new RunningRun(claimed);
    this.running.set(run.scenarioId, run);
    this.options.events.emit('run:started', { ...refOf(run), attempt: claimed.attempt, algorithm: claimed.job.algoName });
    const { task, transferList } = run.task();
    const recorded = this.options
      .pool()
      .run(task, { signal: run.taskAbort.signal, transferList })
      .then((result): RunOutcome => result ?? { status: 'FAILED', message: 'the worker thread answered no outcome', stack: undefined })
      .catch((thrown: unknown): RunOutcome => threadFailure(thrown))
      .then((outcome) => {
        run.answered = true;
        return this.record(run, outcome, claimNext);
      });
    run.settleWith(
      recorded.then(() => undefined),
      this.options.cancelGraceMs,
    );
    return { run, recorded };
  }

  /** Calls an executor's run-ended handler, isolated: a failing handler never breaks the host. */
  private ended(handler: (outcome: HostedOutcome) => void, run: RunningRun, next?: ClaimedRun): void {
    try {
      handler({ run, ...(next ? { next } : {}) });
    } catch (err) {
      this.options.log.error({ err, scenario_id: run.scenarioId }, 'executor: a run-ended handler failed');
    }
  }

  /** Stops a run here, if there is one (see `RunningRun.stop`); resolves once it has settled. */
  async stop(scenarioId: string, reason: StopReason): Promise<void> {
    await this.running.get(scenarioId)?.stop(reason, this.options.cancelGraceMs);
  }

  /**
   * Stops every run of a session here, and those claimed meanwhile with a stopped run's end, until
   * none is left.
   */
  async stopSession(sessionId: string, reason: StopReason): Promise<void> {
    for (;;) {
      const runs = [...this.running.values()].filter((run) => run.sessionId === sessionId);
      if (runs.length === 0) return;
      await Promise.all(runs.map((run) => run.stop(reason, this.options.cancelGraceMs)));
    }
  }

  /** Stops every run here (a shutdown puts them back in the queue), those claimed meanwhile too. */
  async stopAll(reason: StopReason): Promise<void> {
    while (this.running.size > 0) await Promise.all([...this.running.values()].map((run) => run.stop(reason, this.options.cancelGraceMs)));
  }

  /**
   * The one place a run's end is recorded: announces the run's last progress, then records its
   * outcome (`recordOutcome`, claiming its session's next run with it when `claimNext` says so) and
   * announces it. Never throws.
   */
  private async record(run: RunningRun, outcome: RunOutcome, claimNext: SessionRunHooks['claimNext']): Promise<Recorded> {
    const { events, log, runs } = this.options;
    let recorded: Recorded = {};
    try {
      await logLastProgress(run, events);
      recorded = await recordOutcome(runs, run.claimed, run.stopReason, outcome, log, run.insight, claimNext(run.sessionId));
    } catch (err) {
      // Locally the next start recovers it; on PostgreSQL its lease, no longer renewed, expires and
      // another process takes it back.
      log.error({ scenario_id: run.scenarioId, session_id: run.sessionId, err }, 'executor: could not record the outcome of a run');
    }
    if (recorded.announcement) events.emit(recorded.announcement.name, recorded.announcement.event);
    return recorded;
  }

  /**
   * Writes changed live progress of every run and renews due leases: those with new reports or log
   * lines each in a transaction with them, the others together (`writeProgressBatch`: one statement
   * on PostgreSQL). A run whose row is no longer its own is stopped. Runs whose outcome is being
   * recorded are left to the recording.
   */
  async flush(): Promise<void> {
    if (this.flushing) return;
    this.flushing = true;
    const { runs, lease } = this.options;
    try {
      const plain: { run: RunningRun; value: number; moved: boolean }[] = [];
      for (const run of [...this.running.values()]) {
        if (run.stopReason !== undefined || run.answered) continue;
        const progress = run.control.progress;
        // A leased run renews its lease when due; any other confirms its row is still its own as often.
        const due = Date.now() - run.confirmedAt >= (lease?.renewMs ?? OWNERSHIP_CHECK_MS);
        const insight = run.insight.buffer.take();
        const moved = progress > run.writtenProgress;
        if (!moved && !due && insight === undefined) continue;
        const value = Math.max(progress, run.writtenProgress);
        if (insight === undefined) {
          plain.push({ run, value, moved });
          continue;
        }
        let owned: boolean;
        try {
          const leaseMs = lease ? { leaseMs: lease.leaseMs } : {};
          owned = await run.insight.buffer.writing(runs.writeRunInsight(keyOf(run.claimed), { progress: value, ...leaseMs, ...insight }));
        } catch (err) {
          run.insight.buffer.putBack(insight);
          throw err;
        }
        this.progressWritten(run, value, owned, moved || insight.reportJson !== undefined);
      }
      if (plain.length === 0) return;
      const owned = await runs.writeProgressBatch(
        plain.map(({ run, value }) => ({ key: keyOf(run.claimed), progress: value })),
        lease?.leaseMs,
      );
      for (const { run, value, moved } of plain) this.progressWritten(run, value, owned.has(run.scenarioId), moved);
    } catch (err) {
      this.options.log.warn({ err }, 'executor: could not write live progress');
    } finally {
      this.flushing = false;
    }
  }

  /**
   * After a flush wrote `run`'s progress `value`: stops the run when its row was no longer its own,
   * else announces the progress (`announce`: it moved, or a new report came with it).
   */
  private progressWritten(run: RunningRun, value: number, owned: boolean, announce: boolean): void {
    // Not written again, whether or not the row was still this run's.
    run.writtenProgress = value;
    if (!owned) {
      // Cancelled, reset or deleted in the moment between its claim and its launch here (the
      // cancel's stop found nothing to stop yet), or reclaimed after this process was cut off:
      // nothing it writes would land, and it must not hold its thread.
      void run.stop('cancel', this.options.cancelGraceMs);
      return;
    }
    run.confirmedAt = Date.now();
    // Its thread may have answered while this write was under way: the end's own announcement
    // (`logLastProgress`) then carries the last progress and report, and one from here, read
    // before it, would follow it with an older, lower value.
    if (run.answered || value < run.announcedProgress || !announce) return;
    run.announcedProgress = value;
    const report = run.insight.buffer.report;
    this.options.events.emit('run:progress', { ...refOf(run), progress: value, ...(report ? { report } : {}) });
  }
}
