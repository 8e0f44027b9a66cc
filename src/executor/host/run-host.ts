import type { Logger } from 'pino';
import { coerceError } from '../../errors.js';
import type { RunsRepository } from '../../store/runs-repository.js';
import type { RunEvents, RunRef } from '../events.js';
import type { LiveRun } from '../executor.js';
import type { WorkerPool } from '../local/worker-pool.js';
import type { ClaimedRun } from '../queue/claimed-run.js';
import { RunControl } from '../local/run-control.js';
import { InsightChannel } from '../run/insight-channel.js';
import { keyOf, recordOutcome, writeLastInsight, type Announcement, type NextClaim, type Recorded, type StopReason } from '../queue/record-outcome.js';
import type { RunOutcome } from '../run/job.js';
import { startChainTask, type ChainedRuns } from './chain-task.js';
import { Chains } from './chains.js';
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
  /**
   * Runs chained on their threads (the local executor): a run's thread records its end and claims its
   * session's next run itself (`run-chain.ts`); the host hears of it and keeps the live state.
   */
  readonly chain?: ChainedRuns;
}

/** What the executor decides about the runs its threads claim by themselves (see `RunHostOptions.chain`). */
export interface ChainedRunHooks {
  /**
   * Whether a run a thread claimed may go on: the reason to stop it at once (a cancel of it or its
   * session under way, a shutdown), else undefined.
   */
  readonly check: (claimed: ClaimedRun) => StopReason | undefined;
  /** A lingering thread found nothing to claim, or stopped lingering: the queue may want a look. */
  readonly idle: () => void;
}

/** How a hosted run ended, once its outcome was recorded (or could not be). */
export interface HostedOutcome {
  readonly run: RunningRun;
  /** The session's next run, claimed in the transaction that recorded this one's end; the caller launches it. */
  readonly next?: ClaimedRun;
}

const refOf = (run: RunningRun): RunRef => ({ scenarioId: run.scenarioId, sessionId: run.sessionId });

function threadFailure(thrown: unknown): RunOutcome {
  const err = coerceError(thrown);
  return { status: 'FAILED', message: `the worker thread running the algorithm failed: ${err.message}`, stack: err.stack };
}

/**
 * What both executors do with a run once claimed, whatever decided to claim it: launch it on a worker
 * thread, keep its live state, flush its progress, reports and log lines (renewing its lease with a
 * `LeaseHook`), stop it, and record its outcome. Which runs to claim, and when, is the executor's.
 */
export class RunHost {
  /** The chains of runs on their threads (with `RunHostOptions.chain`), running or lingering. */
  readonly chains = new Chains();
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

  runsSession(sessionId: string): boolean {
    for (const run of this.running.values()) if (run.sessionId === sessionId) return true;
    return false;
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
   * Runs a claimed scenario on a worker thread and records its outcome. `claimNext`, asked as the run
   * ends, says whether (and how) its session's next run is claimed with the outcome. `ended` is called
   * once the outcome is recorded and announced and the run no longer counts here, in the same turn (so
   * a next run it launches takes the freed slot before anything else can). Resolves after `ended`;
   * never rejects.
   *
   * With `chain` (see `RunHostOptions`), the thread records the run and goes on with its session's
   * runs: `ended` is called after each of them (without `next`: the thread already runs it), and
   * `chained` decides about the runs the thread claims. The promise then resolves once the first run
   * has ended.
   */
  launch(
    claimed: ClaimedRun,
    claimNext: () => NextClaim | undefined = () => undefined,
    ended: (outcome: HostedOutcome) => void = () => {},
    chained: ChainedRunHooks = { check: () => undefined, idle: () => {} },
  ): Promise<HostedOutcome> {
    const run = this.begin(new RunningRun(claimed), true);
    if (this.options.chain) {
      this.launchChain(run, this.options.chain, claimNext, ended, chained);
      return run.settled.then(() => ({ run }));
    }
    const { task: workerTask, transferList } = run.task();
    const outcome = this.options
      .pool()
      .run(workerTask, { signal: run.taskAbort.signal, transferList })
      .then((result): RunOutcome => result ?? { status: 'FAILED', message: 'the worker thread answered no outcome', stack: undefined })
      .catch((thrown: unknown): RunOutcome => threadFailure(thrown));
    const hosted = outcome.then((result) => this.record(run, result, claimNext)).then(({ next }) => this.ended(ended, run, next));
    run.settleWith(
      hosted.then(() => undefined),
      this.options.cancelGraceMs,
    );
    return hosted;
  }

  /** Counts `run` here from now on; announces its start unless it is being cancelled already. */
  private begin(run: RunningRun, announce: boolean): RunningRun {
    this.running.set(run.scenarioId, run);
    const { claimed } = run;
    if (announce) this.options.events.emit('run:started', { ...refOf(run), attempt: claimed.attempt, algorithm: claimed.job.algoName });
    return run;
  }

  /** Calls an executor's run-ended handler, isolated: a failing handler never breaks the host. */
  private ended(handler: (outcome: HostedOutcome) => void, run: RunningRun, next?: ClaimedRun): HostedOutcome {
    const done = { run, ...(next ? { next } : {}) };
    try {
      handler(done);
    } catch (err) {
      this.options.log.error({ err, scenario_id: run.scenarioId }, 'executor: a run-ended handler failed');
    }
    return done;
  }

  /** The chain of runs a thread goes through from `first` (see `startChainTask`). */
  private launchChain(first: RunningRun, chain: ChainedRuns, claimNext: () => NextClaim | undefined, ended: (outcome: HostedOutcome) => void, hooks: ChainedRunHooks): void {
    const { cancelGraceMs, events, log, runs } = this.options;
    const settles = new Map<RunningRun, () => void>([[first, first.settleLater(cancelGraceMs)]]);
    const settle = (run: RunningRun) => {
      settles.get(run)?.();
      settles.delete(run);
    };
    const handle = startChainTask(
      first,
      this.options.pool(),
      chain,
      {
        beforeEnd: async (run, status) => {
          await logLastProgress(run, events);
          const requeued = run.stopReason === 'shutdown' && status !== 'COMPLETE';
          if (run.stopReason !== 'cancel' && !requeued) await writeLastInsight(runs, run.claimed, run.insight, log);
        },
        recorded: (run, message) => {
          for (const line of message.log) log[line.level](line.fields, line.message);
          this.running.delete(run.scenarioId);
          void run.insight.drained(0);
          if (message.announcement) this.announce(message.announcement, run);
        },
        adopt: ({ claimed, control, insight }, taskAbort) => {
          const next = new RunningRun(claimed, { control: new RunControl(control), insight: new InsightChannel(insight), taskAbort });
          const stop = hooks.check(claimed) ?? (handle.cancelled.has(claimed.job.scenarioId) ? 'cancel' : undefined);
          this.begin(next, stop !== 'cancel');
          settles.set(next, next.settleLater(cancelGraceMs));
          if (stop !== undefined) void next.stop(stop, cancelGraceMs);
          return next;
        },
        settled: (run) => {
          settle(run);
          this.ended(ended, run);
        },
        idle: () => hooks.idle(),
        orphaned: (run, failure) => {
          const outcome: RunOutcome = failure ? threadFailure(failure) : { status: 'FAILED', message: 'the worker thread ended without recording the run', stack: undefined };
          void this.record(run, outcome, claimNext).then(({ next }) => {
            settle(run);
            this.ended(ended, run, next);
          });
        },
      },
      (done) => this.chains.delete(done),
    );
    this.chains.add(handle);
  }

  /** Announces how a run ended, with its last report as this host heard it. */
  private announce(announcement: Announcement, run: RunningRun): void {
    const report = run.insight.buffer.report;
    if (announcement.name === 'run:completed') this.options.events.emit('run:completed', { ...announcement.event, ...(report ? { report } : {}) });
    else this.options.events.emit('run:failed', { ...announcement.event, ...(report ? { report } : {}) });
  }

  /** Stops a run here, if there is one (see `RunningRun.stop`); resolves once it has settled. */
  async stop(scenarioId: string, reason: StopReason): Promise<void> {
    await this.running.get(scenarioId)?.stop(reason, this.options.cancelGraceMs);
  }

  /**
   * Stops every run of a session here, and those its threads claimed meanwhile (a chained run heard of
   * while its predecessor settled), until none is left.
   */
  async stopSession(sessionId: string, reason: StopReason): Promise<void> {
    for (;;) {
      const runs = [...this.running.values()].filter((run) => run.sessionId === sessionId);
      if (runs.length === 0) return;
      await Promise.all(runs.map((run) => run.stop(reason, this.options.cancelGraceMs)));
    }
  }

  /** Stops every run here (a shutdown puts them back in the queue), chained ones heard of meanwhile too. */
  async stopAll(reason: StopReason): Promise<void> {
    while (this.running.size > 0) await Promise.all([...this.running.values()].map((run) => run.stop(reason, this.options.cancelGraceMs)));
  }

  /** Announces the run's last progress, then records its outcome and announces it. Never throws. */
  private async record(run: RunningRun, outcome: RunOutcome, claimNext: () => NextClaim | undefined): Promise<Recorded> {
    const { events, log, runs } = this.options;
    let recorded: Recorded = {};
    try {
      await logLastProgress(run, events);
      recorded = await recordOutcome(runs, run.claimed, run.stopReason, outcome, log, run.insight, claimNext());
    } catch (err) {
      // Locally the next start recovers it; on PostgreSQL its lease, no longer renewed, expires and
      // another process takes it back.
      log.error({ scenario_id: run.scenarioId, session_id: run.sessionId, err }, 'executor: could not record the outcome of a run');
    } finally {
      this.running.delete(run.scenarioId);
    }
    if (recorded.announcement) events.emit(recorded.announcement.name, recorded.announcement.event);
    return recorded;
  }


  /**
   * Writes changed live progress of every run, with its new reports and log lines (one statement per
   * run and tick at most; a transaction with the lines when there are any), and renews due leases. A
   * leased run whose row is no longer its own is stopped without writing.
   */
  async flush(): Promise<void> {
    if (this.flushing) return;
    this.flushing = true;
    const { runs, lease, events } = this.options;
    try {
      for (const run of [...this.running.values()]) {
        if (run.stopReason !== undefined) continue;
        const progress = run.control.progress;
        const leaseDue = lease !== undefined && Date.now() - run.leaseRenewedAt >= lease.renewMs;
        const insight = run.insight.buffer.take();
        const moved = progress > run.writtenProgress;
        if (!moved && !leaseDue && insight === undefined) continue;
        const key = keyOf(run.claimed);
        const value = Math.max(progress, run.writtenProgress);
        const leaseMs = lease ? { leaseMs: lease.leaseMs } : {};
        let owned: boolean;
        try {
          owned = insight
            ? await run.insight.buffer.writing(runs.writeRunInsight(key, { progress: value, ...leaseMs, ...insight }))
            : lease
              ? await runs.renewLease(key, value, lease.leaseMs)
              : await runs.writeProgress(key, value);
        } catch (err) {
          if (insight) run.insight.buffer.putBack(insight);
          throw err;
        }
        // Not written again, whether or not the row was still this run's.
        run.writtenProgress = value;
        if (!owned) {
          if (lease) void run.stop('cancel', this.options.cancelGraceMs);
          continue;
        }
        run.leaseRenewedAt = Date.now();
        if (moved || insight?.reportJson !== undefined) {
          run.announcedProgress = value;
          const report = run.insight.buffer.report;
          events.emit('run:progress', { ...refOf(run), progress: value, ...(report ? { report } : {}) });
        }
      }
    } catch (err) {
      this.options.log.warn({ err }, 'executor: could not write live progress');
    } finally {
      this.flushing = false;
    }
  }
}
