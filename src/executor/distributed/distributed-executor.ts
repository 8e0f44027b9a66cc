import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { Logger as GraphileLogger, run as runGraphile, runMigrations, type JobHelpers, type Runner } from 'graphile-worker';
import { coerceError } from '../../errors.js';
import { isActive } from '../../model/run-state/state-machine.js';
import type { StoredStatus } from '../../store/database.js';
import type { RunEvents, RunRef } from '../events.js';
import type { Executor, LiveRun } from '../executor.js';
import { logLastProgress } from '../local/last-progress.js';
import { RunningRun } from '../local/running-run.js';
import { createWorkerPool, type WorkerPool } from '../local/worker-pool.js';
import { INTERRUPTED_TWICE } from '../../model/run-state/run-error.js';
import { claim, claimHeadOfSession } from '../queue/claim.js';
import type { ClaimedRun } from '../queue/claimed-run.js';
import { keyOf, recordOutcome } from '../queue/record-outcome.js';
import type { RunOutcome } from '../run/job.js';
import { listenForCancels, notifyCancel } from '../../store/postgres/cancel-channel.js';
import { NoticeListener } from '../../store/postgres/notice-listener.js';
import {
  fillDistributedExecutorOptions,
  type DistributedExecutorOptions,
  type FilledDistributedExecutorOptions,
} from './distributed-executor-options.js';
import {
  addRunJob,
  addRunJobs,
  asRunPayload,
  forceUnlockWorkers,
  idleQueueHolds,
  runLockers,
  queuedWithoutJob,
  removeRunJob,
  removeRunJobs,
  rescheduleRunJob,
  RUN_TASK,
  sessionQueue,
} from '../../store/postgres/graphile-queue.js';
import { openGraphilePool } from './graphile-pool.js';

const now = () => new Date().toISOString();
const refOf = (run: RunningRun): RunRef => ({ scenarioId: run.scenarioId, sessionId: run.sessionId });

/** Jobs of runs a session's job went on with, removed in one statement. */
const REMOVE_BATCH = 50;

/** How long a job waits before trying again when its session is still busy with another run. */
const BUSY_RETRY_MS = 1_000;

/**
 * Runs scenarios on PostgreSQL across any number of processes and hosts. Each run is a
 * graphile-worker job in a named queue per session (the per-session serial rule, held by
 * graphile-worker for every machine). Processes with `workers > 0` take jobs and run them on worker
 * threads; every process renews leases of its runs, reclaims runs whose process died (expired
 * lease), and hears cross-host cancellations through LISTEN/NOTIFY.
 */
export class DistributedExecutor implements Executor {
  readonly events: RunEvents;
  private readonly options: FilledDistributedExecutorOptions;
  private state: 'new' | 'started' | 'closing' | 'closed' = 'new';
  private pool: WorkerPool | undefined;
  private runner: Runner | undefined;
  /** Where cancels are heard: the process's listener, or one of this executor's own (`ownsNotices`). */
  private readonly notices: NoticeListener;
  private readonly ownsNotices: boolean;
  private stopListening: (() => void) | undefined;
  /** graphile-worker's own connections (see `openGraphilePool`). */
  private graphilePool: pg.Pool | undefined;
  private readonly running = new Map<string, RunningRun & { leaseRenewedAt?: number }>();
  private flushTimer: NodeJS.Timeout | undefined;
  private reapTimer: NodeJS.Timeout | undefined;
  private flushing = false;
  private reaping = false;
  /** The queue holds the last reap saw with nothing of their session PROCESSING (see `idleQueueHolds`). */
  private idleHolds = new Set<string>();

  constructor(options: DistributedExecutorOptions) {
    this.options = fillDistributedExecutorOptions(options);
    this.events = this.options.events;
    this.ownsNotices = this.options.notices === undefined;
    this.notices = this.options.notices ?? new NoticeListener(this.options.databaseUrl, this.options.log);
  }

  private get db() {
    return this.options.store.db;
  }

  private get runs() {
    return this.options.store.runs;
  }

  async start(): Promise<void> {
    if (this.state !== 'new') return;
    const { databaseUrl, workers, log } = this.options;
    await runMigrations({ connectionString: databaseUrl, logger: graphileLogger(log) });
    this.state = 'started';
    this.reapTimer = setInterval(() => void this.reap(), this.options.reapIntervalMs);
    this.reapTimer.unref();
    await this.reap();
    if (workers === 0) {
      log.info('executor: workers is 0; this API node runs no scenarios');
      return;
    }
    this.stopListening = await listenForCancels(this.notices, (id) => this.cancelledElsewhere(id));
    this.pool = createWorkerPool(workers, { databaseUrl, domain: this.options.domain, logLevel: log.level, externalLimits: this.options.externalLimits });
    this.flushTimer = setInterval(() => void this.flush(), this.options.progressFlushMs);
    this.flushTimer.unref();
    this.graphilePool = openGraphilePool(databaseUrl, workers);
    this.runner = await runGraphile({
      pgPool: this.graphilePool,
      concurrency: workers,
      noHandleSignals: true,
      pollInterval: 1_000,
      logger: graphileLogger(log),
      taskList: { [RUN_TASK]: (payload, helpers) => this.runJob(payload, helpers) },
    });
  }

  /** The run's job was added by the statement that queued it (the store's trigger, migration 0020). */
  queued(ref: RunRef): void {
    this.events.emit('run:queued', { ...ref, recovered: false });
  }

  live(scenarioId: string): LiveRun | undefined {
    const run = this.running.get(scenarioId);
    return run && { sessionId: run.sessionId, tag: run.claimed.tag, progress: run.control.progress, report: run.insight.buffer.report };
  }

  async cancel(ref: RunRef, remove: () => Promise<StoredStatus | undefined>): Promise<void> {
    await this.stopEverywhere([ref.scenarioId]);
    const removed = await remove();
    await removeRunJob(this.db, ref.scenarioId).catch(() => {});
    if (removed !== undefined && isActive(removed)) this.events.emit('run:cancelled', ref);
  }

  async abort(ref: RunRef): Promise<void> {
    await this.stopEverywhere([ref.scenarioId]);
    await removeRunJob(this.db, ref.scenarioId).catch(() => {});
  }

  async cancelSession(sessionId: string, remove: () => Promise<RunRef[]>): Promise<void> {
    await this.stopEverywhere(await this.runs.activeIds(sessionId));
    const removed = await remove();
    for (const ref of removed) {
      await removeRunJob(this.db, ref.scenarioId).catch(() => {});
      this.events.emit('run:cancelled', ref);
    }
  }

  async close(): Promise<void> {
    if (this.state === 'closed' || this.state === 'closing') return;
    this.state = 'closing';
    clearInterval(this.reapTimer);
    clearInterval(this.flushTimer);
    await Promise.all([...this.running.values()].map((run) => run.stop('shutdown', this.options.cancelGraceMs)));
    await this.runner?.stop();
    await this.graphilePool?.end();
    this.stopListening?.();
    if (this.ownsNotices) await this.notices.close();
    await this.pool?.destroy();
    this.state = 'closed';
  }

  /** Stops local runs at once and tells every other process to stop theirs. */
  private async stopEverywhere(scenarioIds: readonly string[]): Promise<void> {
    if (scenarioIds.length === 0) return;
    await notifyCancel(this.db, scenarioIds);
    await Promise.all(scenarioIds.flatMap((id) => this.running.get(id) ?? []).map((run) => run.stop('cancel', this.options.cancelGraceMs)));
  }

  /** A cancel announced on the cancel channel (by any process, this one included). */
  private cancelledElsewhere(scenarioId: string): void {
    const run = this.running.get(scenarioId);
    if (!run) return;
    this.options.log.info({ scenario_id: scenarioId }, 'stopping a run: its cancel was announced');
    void run.stop('cancel', this.options.cancelGraceMs);
  }

  /**
   * The graphile-worker task: claim the scenario, run it on a thread, record the outcome. It never
   * fails for control flow: a job that cannot run now (shutdown, session busy) is put back with
   * `rescheduleRunJob` and ends normally, because a failed job is backed off exponentially and
   * overtaken by the later jobs of its session.
   */
  private async runJob(payload: unknown, helpers: JobHelpers): Promise<void> {
    const { scenarioId } = asRunPayload(payload);
    const row = () => this.runs.statusOf(scenarioId);
    const again = (sessionId: string, when: Parameters<typeof rescheduleRunJob>[2]) =>
      rescheduleRunJob(this.db, { scenarioId, queueName: sessionQueue(sessionId) }, when);
    // Put back at its original time: it runs before anything queued after it, on another worker.
    const original = { runAt: new Date(helpers.job.run_at) };
    if (this.state !== 'started') {
      const current = await row();
      if (current?.status === 'QUEUED') await again(current.sessionId, original);
      return;
    }
    let claimed;
    try {
      claimed = await claim(this.runs, scenarioId, randomUUID(), { timeLimitOf: this.options.timeLimitOf, leaseMs: this.options.leaseMs });
    } catch (err) {
      this.options.log.warn({ err, scenario_id: scenarioId }, 'could not claim a scenario; trying again shortly');
      const current = await row();
      if (current?.status === 'QUEUED') await again(current.sessionId, { delayMs: BUSY_RETRY_MS });
      return;
    }
    if (!claimed) {
      const current = await row();
      // Still queued: its session has a run in flight that is not yet reclaimed; try again shortly.
      if (current?.status === 'QUEUED') await again(current.sessionId, { delayMs: BUSY_RETRY_MS });
      return; // deleted, cancelled, reset or already finished: nothing to run
    }
    helpers.logger.debug(`running scenario ${scenarioId} (attempt ${claimed.attempt})`);
    const run = await this.execute(claimed);
    if (run.stopReason === 'shutdown') {
      await again(claimed.job.sessionId, original);
      return;
    }
    // While this job runs, graphile-worker keeps the session's queue locked: no other job of the
    // session starts anywhere. So the job goes on with the session's next run as long as that run is
    // the head of the whole queue (FIFO across sessions holds), sparing each run a job of its own.
    const sessionId = claimed.job.sessionId;
    // Their own jobs would only find them no longer QUEUED: removed in batches, so that no worker
    // spends a turn on them (while this job runs they wait in the session's locked queue anyway).
    const taken: string[] = [];
    const removeTaken = () => removeRunJobs(this.db, taken.splice(0)).catch(() => {});
    try {
      await this.runSessionOn(sessionId, taken, removeTaken);
    } finally {
      await removeTaken();
    }
  }

  /** Runs the session's next runs while each heads the queue (see `runJob`). */
  private async runSessionOn(sessionId: string, taken: string[], removeTaken: () => Promise<void>): Promise<void> {
    while (this.state === 'started') {
      const next = await claimHeadOfSession(this.runs, sessionId, randomUUID(), { timeLimitOf: this.options.timeLimitOf, leaseMs: this.options.leaseMs }).catch(
        (err: unknown) => {
          this.options.log.warn({ err, session_id: sessionId }, 'could not claim the next run of a session; its own job runs it');
          return undefined;
        },
      );
      if (!next) return;
      if (taken.push(next.job.scenarioId) >= REMOVE_BATCH) await removeTaken();
      const run = await this.execute(next);
      // Queued again by the shutdown, with a job at its place in the queue for another process
      // (the removals above are done: none of them can remove this new job).
      if (run.stopReason === 'shutdown') {
        const at = taken.indexOf(next.job.scenarioId);
        if (at !== -1) taken.splice(at, 1);
        await addRunJobs(this.db, [next.job.scenarioId]);
        return;
      }
    }
  }

  /** Runs a claimed scenario on a thread and records its outcome; resolves once settled. */
  private async execute(claimed: ClaimedRun): Promise<RunningRun> {
    const scenarioId = claimed.job.scenarioId;
    const run: RunningRun & { leaseRenewedAt?: number } = new RunningRun(claimed);
    run.leaseRenewedAt = Date.now();
    this.running.set(scenarioId, run);
    try {
      this.events.emit('run:started', { ...refOf(run), attempt: claimed.attempt, algorithm: claimed.job.algoName });
      const { task: workerTask, transferList } = run.task();
      const task = this.pool!.run(workerTask, { signal: run.taskAbort.signal, transferList }).catch(
        (thrown: unknown): RunOutcome => {
          const err = coerceError(thrown);
          return { status: 'FAILED', message: `the worker thread running the algorithm failed: ${err.message}`, stack: err.stack };
        },
      );
      run.settleWith(
        task.then(async (outcome) => {
          await logLastProgress(run, this.events);
          const announcement = await recordOutcome(this.runs, run.claimed, run.stopReason, outcome, this.options.log, run.insight).catch((err: unknown) => {
            // The lease, no longer renewed, expires and another process takes the run back.
            this.options.log.error({ err, scenario_id: scenarioId }, 'executor: could not record the outcome of a run');
            return undefined;
          });
          if (announcement) this.events.emit(announcement.name, announcement.event);
        }),
        this.options.cancelGraceMs,
      );
      await run.settled;
    } finally {
      this.running.delete(scenarioId);
    }
    return run;
  }

  /**
   * Writes changed progress, new reports and log lines, and renews leases of this process's runs
   * (one statement per run and tick; a transaction with the lines when there are any). A run whose
   * row is no longer its own (deleted, or reclaimed after this process was cut off) is stopped
   * without writing.
   */
  private async flush(): Promise<void> {
    if (this.flushing) return;
    this.flushing = true;
    try {
      for (const run of [...this.running.values()]) {
        if (run.stopReason !== undefined) continue;
        const progress = run.control.progress;
        const leaseDue = Date.now() - (run.leaseRenewedAt ?? 0) >= this.options.leaseRenewMs;
        const insight = run.insight.buffer.take();
        if (progress <= run.writtenProgress && !leaseDue && insight === undefined) continue;
        const key = keyOf(run.claimed);
        const { leaseMs } = this.options;
        const value = Math.max(progress, run.writtenProgress);
        let owned: boolean;
        try {
          owned = insight
            ? await run.insight.buffer.writing(this.runs.writeRunInsight(key, { progress: value, leaseMs, ...insight }))
            : await this.runs.renewLease(key, value, leaseMs);
        } catch (err) {
          if (insight) run.insight.buffer.putBack(insight);
          throw err;
        }
        if (!owned) {
          void run.stop('cancel', this.options.cancelGraceMs);
          continue;
        }
        run.leaseRenewedAt = Date.now();
        if (progress > run.writtenProgress || insight?.reportJson !== undefined) {
          run.writtenProgress = value;
          run.announcedProgress = value;
          const report = run.insight.buffer.report;
          this.events.emit('run:progress', { ...refOf(run), progress: value, ...(report ? { report } : {}) });
        }
      }
    } catch (err) {
      this.options.log.warn({ err }, 'executor: could not write progress and leases');
    } finally {
      this.flushing = false;
    }
  }

  /** Reclaims runs of dead processes, releases queues they held, and gives every QUEUED scenario its job. */
  private async reap(): Promise<void> {
    if (this.reaping || this.state !== 'started') return;
    this.reaping = true;
    const { log, leaseMs } = this.options;
    try {
      for (const expired of await this.runs.expiredRuns(leaseMs)) {
        if (this.running.has(expired.scenarioId)) continue; // ours: the flush renews it
        const lockers = await runLockers(this.db, expired);
        const outcome = await this.runs.reclaim(expired, now());
        if (outcome === 'lost') continue;
        await forceUnlockWorkers(this.db, lockers);
        const ids = { scenario_id: expired.scenarioId, session_id: expired.sessionId };
        if (outcome === 'requeued') {
          log.warn(ids, 'the process running this scenario stopped renewing its lease; queued again');
          await addRunJob(this.db, expired);
          this.events.emit('run:queued', { scenarioId: expired.scenarioId, sessionId: expired.sessionId, recovered: true });
        } else {
          log.error(ids, 'the process running this scenario died on its second attempt; scenario FAILED');
          await removeRunJob(this.db, expired.scenarioId);
          this.events.emit('run:failed', { scenarioId: expired.scenarioId, sessionId: expired.sessionId, message: INTERRUPTED_TWICE, code: 'INTERRUPTED' });
        }
      }
      // A live worker going on with its session's next runs holds the queue with nothing PROCESSING
      // for moments: only a holder seen so at two reaps in a row, its session's runs unmoved, is dead.
      const holds = (await idleQueueHolds(this.db, leaseMs)).map((h) => ({ worker: h.worker, key: `${h.worker} ${h.queue} ${h.progress}` }));
      const orphaned = [...new Set(holds.filter((h) => this.idleHolds.has(h.key)).map((h) => h.worker))];
      this.idleHolds = new Set(holds.map((h) => h.key));
      if (orphaned.length > 0) {
        log.warn({ workers: orphaned }, 'graphile workers that died holding a session queue; released');
        await forceUnlockWorkers(this.db, orphaned);
      }
      await addRunJobs(this.db, (await queuedWithoutJob(this.db)).map((ref) => ref.scenarioId));
    } catch (err) {
      log.warn({ err }, 'executor: lease and queue check failed; retrying');
    } finally {
      this.reaping = false;
    }
  }
}

/** graphile-worker's log lines through our pino logger. */
function graphileLogger(log: DistributedExecutorOptions['log']): GraphileLogger {
  return new GraphileLogger(() => (level, message, meta) => {
    const fields = { component: 'graphile-worker', ...(meta ?? {}) };
    // LogLevel is a const enum without a runtime object, so its string values are compared.
    const severity: string = level;
    if (severity === 'error') log.error(fields, message);
    else if (severity === 'warning') log.warn(fields, message);
    else log.debug(fields, message);
  });
}
