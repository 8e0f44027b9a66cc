import { randomUUID } from 'node:crypto';
import { speedLayerOn } from '../../config/speed-layers.js';
import { coerceError } from '../../errors.js';
import { isActive } from '../../model/run-state/state-machine.js';
import type { StoredStatus } from '../../store/database.js';
import type { RunEvents, RunRef } from '../events.js';
import type { Executor, LiveRun } from '../executor.js';
import { INTERRUPTED_TWICE } from '../../model/run-state/run-error.js';
import { claim, claimHeadOfSession } from '../queue/claim.js';
import type { ClaimedRun } from '../queue/claimed-run.js';
import { nextQueued, processingSessions } from '../../store/next-queued.js';
import { keyOf, recordOutcome, type Announcement } from '../queue/record-outcome.js';
import type { RunOutcome } from '../run/job.js';
import { fillLocalExecutorOptions, type FilledLocalExecutorOptions, type LocalExecutorOptions } from './local-executor-options.js';
import { logLastProgress } from './last-progress.js';
import { QuietQueue } from './quiet-queue.js';
import { RunningRun } from './running-run.js';
import { createWorkerPool, type WorkerPool } from './worker-pool.js';

const now = () => new Date().toISOString();
const refOf = (run: RunningRun): RunRef => ({ scenarioId: run.scenarioId, sessionId: run.sessionId });

/**
 * Runs scenarios in this process on a pool of worker threads: per-session FIFO, at most one
 * PROCESSING scenario per session, sessions in parallel up to `workers`. All queue state is in the
 * database; memory holds only the runs in flight and what the last look proved about the queue (to
 * skip looks that could only come back empty), so a restart re-reads the queue and loses nothing.
 * A run usually costs two statements to dispatch (the next heads, the claim) and one to record.
 */
export class LocalExecutor implements Executor {
  readonly events: RunEvents;
  private readonly options: FilledLocalExecutorOptions;
  private state: 'new' | 'started' | 'closed' = 'new';
  private pool: WorkerPool | undefined;
  private stopWarming: (() => void) | undefined;
  /** Runs from launch until their outcome is recorded, by scenario id. */
  private readonly running = new Map<string, RunningRun>();
  /** Scenarios and sessions being cancelled: never claimed meanwhile. */
  private readonly cancelling = new Set<string>();
  private readonly stoppingSessions = new Set<string>();
  /** Lets a dispatch skip looks at the queue that could only come back empty. */
  private readonly quiet = new QuietQueue(speedLayerOn('quiet-queue'));
  private dispatching: Promise<void> | undefined;
  private dispatchAgain = false;
  private flushTimer: NodeJS.Timeout | undefined;
  private flushing = false;

  constructor(options: LocalExecutorOptions) {
    this.options = fillLocalExecutorOptions(options);
    this.events = this.options.events;
  }

  private get db() {
    return this.options.store.db;
  }

  private get runs() {
    return this.options.store.runs;
  }

  async start(): Promise<void> {
    if (this.state !== 'new') return;
    const { workers, log } = this.options;
    if (workers === 0) {
      // An API-only node: whoever runs scenarios (another process) also owns their recovery.
      this.state = 'started';
      log.info('executor: workers is 0; this process runs no scenarios');
      return;
    }
    // Recovery and the queue assume this is the store's only executor: the process owning the store
    // holds its lock (`openStore` with `owner`), so no other process runs one.
    const recovered = await this.runs.recoverInterrupted(now());
    for (const { scenarioId, sessionId } of recovered.requeued) {
      log.warn({ scenario_id: scenarioId, session_id: sessionId }, 'run interrupted by a restart; queued again');
      this.events.emit('run:queued', { scenarioId, sessionId, recovered: true });
    }
    for (const { scenarioId, sessionId } of recovered.failed) {
      log.error({ scenario_id: scenarioId, session_id: sessionId }, 'run interrupted twice; scenario FAILED');
      this.events.emit('run:failed', { scenarioId, sessionId, message: INTERRUPTED_TWICE, code: 'INTERRUPTED' });
    }
    // The threads start with the first scenario created here, so that its run finds them ready
    // (domain loaded, store open): a process that only serves datasets never starts them.
    this.stopWarming = this.events.on('run:created', () => this.workerPool());
    this.flushTimer = setInterval(() => void this.flushProgress(), this.options.progressFlushMs);
    this.flushTimer.unref();
    this.state = 'started';
    this.dispatch();
  }

  queued(ref: RunRef): void {
    this.events.emit('run:queued', { ...ref, recovered: false });
    this.quiet.queued(ref);
    // Behind a run of its session here, it cannot start before that run settles, and settling
    // dispatches: looking now would only find nothing (a sequence of runs would pay it every time).
    if (this.runsSession(ref.sessionId)) return;
    this.dispatch();
  }

  live(scenarioId: string): LiveRun | undefined {
    const run = this.running.get(scenarioId);
    return run && { sessionId: run.sessionId, tag: run.claimed.tag, progress: run.control.progress, report: run.insight.buffer.report };
  }

  async cancel(ref: RunRef, remove: () => Promise<StoredStatus | undefined>): Promise<void> {
    this.cancelling.add(ref.scenarioId);
    try {
      await this.running.get(ref.scenarioId)?.stop('cancel', this.options.cancelGraceMs);
      const removed = await remove();
      if (removed !== undefined && isActive(removed)) this.events.emit('run:cancelled', ref);
    } finally {
      this.cancelling.delete(ref.scenarioId);
      // Its row may still be queued if `remove` failed: look at the whole queue again.
      this.quiet.forget();
      this.dispatch();
    }
  }

  async abort(ref: RunRef): Promise<void> {
    // The row is no longer QUEUED: whatever the queue knew about it is stale.
    this.quiet.forget();
    await this.running.get(ref.scenarioId)?.stop('cancel', this.options.cancelGraceMs);
  }

  async cancelSession(sessionId: string, remove: () => Promise<RunRef[]>): Promise<void> {
    this.stoppingSessions.add(sessionId);
    try {
      const runs = [...this.running.values()].filter((run) => run.sessionId === sessionId);
      await Promise.all(runs.map((run) => run.stop('cancel', this.options.cancelGraceMs)));
      for (const ref of await remove()) this.events.emit('run:cancelled', ref);
    } finally {
      this.stoppingSessions.delete(sessionId);
      this.quiet.forget();
      this.dispatch();
    }
  }

  async close(): Promise<void> {
    if (this.state === 'closed') return;
    this.state = 'closed';
    clearInterval(this.flushTimer);
    this.stopWarming?.();
    await this.dispatching;
    await Promise.all([...this.running.values()].map((run) => run.stop('shutdown', this.options.cancelGraceMs)));
    await this.pool?.destroy();
  }

  /** The pool of worker threads, started on first use. */
  private workerPool(): WorkerPool {
    const { workers, databaseUrl, domain, log, externalLimits } = this.options;
    this.pool ??= createWorkerPool(workers, { databaseUrl, domain, logLevel: log.level, externalLimits });
    return this.pool;
  }

  /** Fills free worker slots from the queue; calls while it runs make it look again afterwards. */
  private dispatch(): void {
    if (this.state !== 'started' || this.options.workers === 0) return;
    if (this.dispatching) {
      this.dispatchAgain = true;
      return;
    }
    this.dispatching = this.dispatchUntilSettled()
      .catch((err: unknown) => {
        this.options.log.error({ err }, 'executor: dispatch failed; retrying shortly');
        setTimeout(() => this.dispatch(), 1_000).unref();
      })
      .finally(() => {
        this.dispatching = undefined;
        // A call that arrived after the loop's last look must not be lost.
        if (this.dispatchAgain) this.dispatch();
      });
  }

  private async dispatchUntilSettled(): Promise<void> {
    do {
      this.dispatchAgain = false;
      await this.fillSlots();
    } while (this.dispatchAgain && this.state === 'started');
  }

  private async fillSlots(): Promise<void> {
    let lostClaim: string | undefined;
    // Sessions PROCESSING in the database without running here: read only once a claim has lost,
    // since memory knows this executor's runs and the claim re-checks the rule in the database.
    let elsewhere: readonly string[] = [];
    while (this.state === 'started' && this.running.size < this.options.workers) {
      const busy = [...this.running.values()].map((run) => run.sessionId);
      const exclude = { sessions: [...busy, ...this.stoppingSessions, ...elsewhere], ids: [...this.cancelling] };
      if (this.quiet.isQuiet(exclude.sessions)) return;
      const look = this.quiet.beforeLook();
      // Only one session may hold queued rows outside the exclusions (a session going on with its
      // queue): its head is claimed without a look. Should an excluded session hold an older row, the
      // queue's head is elsewhere, this claim takes nothing and the look below decides.
      const only = exclude.ids.length === 0 ? this.quiet.onlySession(exclude.sessions) : undefined;
      const next = only === undefined ? undefined : await claimHeadOfSession(this.runs, only, randomUUID(), { timeLimitOf: this.options.timeLimitOf });
      if (next) {
        if ((await this.launchClaimed(next)) === 'closed') return;
        continue;
      }
      // A lone newcomer is the head there: claimed without a look. Otherwise two rows are read,
      // since a lone head means nothing else is queued outside the exclusions once it is claimed.
      const lone = this.quiet.loneHead(exclude.sessions, exclude.ids);
      const heads = lone ? [{ id: lone.scenarioId, sessionId: lone.sessionId }] : await nextQueued(this.db, exclude, 2);
      const head = heads[0];
      if (!head) {
        if (exclude.ids.length === 0) this.quiet.nothingOutside(look, exclude.sessions);
        return;
      }
      const claimed = await claim(this.runs, head.id, randomUUID(), { timeLimitOf: this.options.timeLimitOf });
      if (!claimed) {
        // Another request changed it first, or its session has a PROCESSING scenario this executor
        // does not run; a second loss on the same head means it is not claimable now.
        this.quiet.forget();
        if (lostClaim === head.id) return;
        lostClaim = head.id;
        elsewhere = await processingSessions(this.db);
        continue;
      }
      const started = await this.launchClaimed(claimed);
      if (started === 'closed') return;
      if (started === 'launched' && (lone || (heads.length === 1 && exclude.ids.length === 0))) this.quiet.nothingOutside(look, exclude.sessions);
    }
  }

  /** Launches a run just claimed; unless the executor has closed meanwhile (back in the queue) or it is being cancelled. */
  private async launchClaimed(claimed: ClaimedRun): Promise<'launched' | 'cancelled' | 'closed'> {
    if (this.state !== 'started') {
      await this.runs.requeueStopped(keyOf(claimed));
      return 'closed';
    }
    // Cancelled while being claimed: its canceller is about to delete the row; never start it.
    if (this.cancelling.has(claimed.job.scenarioId) || this.stoppingSessions.has(claimed.job.sessionId)) return 'cancelled';
    this.launch(new RunningRun(claimed));
    return 'launched';
  }

  private runsSession(sessionId: string): boolean {
    for (const run of this.running.values()) if (run.sessionId === sessionId) return true;
    return false;
  }

  private launch(run: RunningRun): void {
    this.running.set(run.scenarioId, run);
    this.events.emit('run:started', { ...refOf(run), attempt: run.claimed.attempt, algorithm: run.claimed.job.algoName });
    const { task: workerTask, transferList } = run.task();
    const task = this.workerPool().run(workerTask, { signal: run.taskAbort.signal, transferList });
    run.settleWith(
      task
        .catch((thrown: unknown): RunOutcome => {
          const err = coerceError(thrown);
          return { status: 'FAILED', message: `the worker thread running the algorithm failed: ${err.message}`, stack: err.stack };
        })
        .then((outcome) => this.settle(run, outcome)),
      this.options.cancelGraceMs,
    );
  }

  /** Records a run's outcome (unless it was cancelled), then frees its session and slot. Never throws. */
  private async settle(run: RunningRun, outcome: RunOutcome): Promise<void> {
    const ref = refOf(run);
    let announcement: Announcement | undefined;
    try {
      await logLastProgress(run, this.events);
      announcement = await recordOutcome(this.runs, run.claimed, run.stopReason, outcome, this.options.log, run.insight);
    } catch (err) {
      this.options.log.error(
        { scenario_id: ref.scenarioId, session_id: ref.sessionId, err },
        'executor: could not record the outcome of a run; the next start recovers it',
      );
    } finally {
      this.running.delete(ref.scenarioId);
    }
    if (announcement) this.events.emit(announcement.name, announcement.event);
    this.dispatch();
  }

  /**
   * Writes changed live progress of every run, with its new report and log lines, batched (one
   * UPDATE per run and tick at most; a transaction with the lines when there are any).
   */
  private async flushProgress(): Promise<void> {
    if (this.flushing) return;
    this.flushing = true;
    try {
      for (const run of [...this.running.values()]) {
        if (run.stopReason !== undefined) continue;
        const progress = run.control.progress;
        const insight = run.insight.buffer.take();
        const moved = progress > run.writtenProgress;
        if (!moved && insight === undefined) continue;
        run.writtenProgress = Math.max(progress, run.writtenProgress);
        const key = keyOf(run.claimed);
        let written: boolean;
        try {
          written = insight
            ? await run.insight.buffer.writing(this.runs.writeRunInsight(key, { progress: run.writtenProgress, ...insight }))
            : await this.runs.writeProgress(key, progress);
        } catch (err) {
          if (insight) run.insight.buffer.putBack(insight);
          throw err;
        }
        const report = run.insight.buffer.report;
        const announce = written && (moved || insight?.reportJson !== undefined);
        if (announce) {
          run.announcedProgress = run.writtenProgress;
          this.events.emit('run:progress', { ...refOf(run), progress: run.writtenProgress, ...(report ? { report } : {}) });
        }
      }
    } catch (err) {
      this.options.log.warn({ err }, 'executor: could not write live progress');
    } finally {
      this.flushing = false;
    }
  }
}
