import { randomUUID } from 'node:crypto';
import type pg from 'pg';
import { run as runGraphile, runMigrations, type JobHelpers, type Runner } from 'graphile-worker';
import { isActive } from '../../model/run-state/state-machine.js';
import type { StoredStatus } from '../../store/database.js';
import type { RunEvents, RunRef } from '../events.js';
import type { Executor, LiveRun } from '../executor.js';
import type { RunHost, SessionRunHooks } from '../host/run-host.js';
import { hostedPool } from '../host/hosted-pool.js';
import type { IdleWorkerPool } from '../host/worker-pool.js';
import { claim, claimHeadOfSession, type ClaimOptions } from '../queue/claim.js';
import { timeLimitOf } from '../queue/time-limits.js';
import type { ClaimedRun } from '../queue/claimed-run.js';
import type { NextClaim } from '../queue/record-outcome.js';
import { listenForCancels, notifyCancel } from '../../store/postgres/cancel-channel.js';
import { NoticeListener } from '../../store/postgres/notice-listener.js';
import {
  fillDistributedExecutorOptions,
  type DistributedExecutorOptions,
  type FilledDistributedExecutorOptions,
} from './distributed-executor-options.js';
import {
  addRunJobs,
  addWakeJobs,
  asRunPayload,
  asWakePayload,
  postponeSessionJobs,
  removeRunJob,
  removeRunJobs,
  rescheduleRunJob,
  RUN_TASK,
  sessionQueue,
  WAKE_TASK,
} from '../../store/postgres/graphile-queue.js';
import { graphileLogger } from './graphile-logger.js';
import { openGraphilePool } from './graphile-pool.js';
import { Reaper } from './reaper.js';

/** Jobs of runs a session's job went on with, removed in one statement. */
const REMOVE_BATCH = 50;

/** How long a job waits before trying again when its session is still busy with another run. */
const BUSY_RETRY_MS = 1_000;

/**
 * Runs scenarios on PostgreSQL across any number of processes and hosts. Each run is a
 * graphile-worker job in a named queue per session (the per-session serial rule, held by
 * graphile-worker for every machine). Processes with `workers > 0` take jobs and run them on worker
 * threads (`RunHost`, with a lease renewed by its flush); every process reclaims runs whose process
 * died (`Reaper`) and hears cross-host cancellations through LISTEN/NOTIFY.
 */
export class DistributedExecutor implements Executor {
  readonly events: RunEvents;
  private readonly options: FilledDistributedExecutorOptions;
  private state: 'new' | 'started' | 'closing' | 'closed' = 'new';
  private readonly pool: IdleWorkerPool;
  private readonly host: RunHost;
  private readonly reaper: Reaper;
  private runner: Runner | undefined;
  /** Where cancels are heard: the process's listener, or one of this executor's own (`ownsNotices`). */
  private readonly notices: NoticeListener;
  private readonly ownsNotices: boolean;
  private stopListening: (() => void) | undefined;
  /** graphile-worker's own connections (see `openGraphilePool`). */
  private graphilePool: pg.Pool | undefined;
  private reapTimer: NodeJS.Timeout | undefined;

  constructor(options: DistributedExecutorOptions) {
    this.options = fillDistributedExecutorOptions(options);
    this.events = this.options.events;
    const { store, log, databaseUrl, leaseMs, leaseRenewMs } = this.options;
    this.ownsNotices = this.options.notices === undefined;
    this.notices = this.options.notices ?? new NoticeListener(databaseUrl, log);
    ({ pool: this.pool, host: this.host } = hostedPool(this.options, { leaseMs, renewMs: leaseRenewMs }));
    this.reaper = new Reaper({
      db: store.db,
      runs: store.runs,
      events: this.events,
      log,
      leaseMs,
      runsHere: (id) => this.host.has(id),
      maxRunningPerSession: this.options.maxRunningPerSession,
    });
  }

  private get db() {
    return this.options.store.db;
  }

  private get runs() {
    return this.options.store.runs;
  }

  private get claimOptions(): ClaimOptions {
    return { timeLimitOf: timeLimitOf(this.options.timeLimits), leaseMs: this.options.leaseMs, maxRunning: this.options.maxRunningPerSession };
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
    // The threads start with the first job this process takes, and stop once idle.
    this.host.startFlushing();
    this.graphilePool = openGraphilePool(databaseUrl, workers);
    this.runner = await runGraphile({
      pgPool: this.graphilePool,
      concurrency: workers,
      noHandleSignals: true,
      pollInterval: 1_000,
      logger: graphileLogger(log),
      taskList: { [RUN_TASK]: (payload, helpers) => this.runJob(payload, helpers), [WAKE_TASK]: (payload) => this.wakeJob(payload) },
    });
  }

  /**
   * Starts the run threads now, if this process runs scenarios; like a run's own start, they stop
   * again after the pool's idle time without a run.
   */
  warm(): void {
    if (this.state === 'started' && this.options.workers > 0) this.pool.warm();
  }

  /** The run's job was added by the statement that queued it (the store's trigger, migration 0020). */
  queued(ref: RunRef): void {
    this.events.emit('run:queued', { ...ref, recovered: false });
  }

  live(scenarioId: string): LiveRun | undefined {
    return this.host.live(scenarioId);
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
    this.host.stopFlushing();
    await this.host.stopAll('shutdown');
    await this.runner?.stop();
    await this.graphilePool?.end();
    this.stopListening?.();
    if (this.ownsNotices) await this.notices.close();
    await this.pool.destroy();
    this.state = 'closed';
  }

  /** Stops local runs at once and tells every other process to stop theirs. */
  private async stopEverywhere(scenarioIds: readonly string[]): Promise<void> {
    if (scenarioIds.length === 0) return;
    await notifyCancel(this.db, scenarioIds);
    await Promise.all(scenarioIds.map((id) => this.host.stop(id, 'cancel')));
  }

  /** A cancel announced on the cancel channel (by any process, this one included). */
  private cancelledElsewhere(scenarioId: string): void {
    if (!this.host.has(scenarioId)) return;
    this.options.log.info({ scenario_id: scenarioId }, 'stopping a run: its cancel was announced');
    void this.host.stop(scenarioId, 'cancel');
  }

  private async reap(): Promise<void> {
    if (this.state === 'started') await this.reaper.reap();
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
      claimed = await claim(this.runs, scenarioId, randomUUID(), this.claimOptions);
    } catch (err) {
      this.options.log.warn({ err, scenario_id: scenarioId }, 'could not claim a scenario; trying again shortly');
      const current = await row();
      if (current?.status === 'QUEUED') await again(current.sessionId, { delayMs: BUSY_RETRY_MS });
      return;
    }
    if (!claimed) {
      const current = await row();
      // Still queued: its session has a run in flight that is not yet reclaimed (or, several of a
      // session at once, all its slots are taken); try again shortly.
      if (current?.status === 'QUEUED') {
        await again(current.sessionId, { delayMs: BUSY_RETRY_MS });
        // Its session's later jobs would only find the same, one after the other: they wait as long.
        if (this.wide) await postponeSessionJobs(this.db, current.sessionId, BUSY_RETRY_MS);
      }
      return; // deleted, cancelled, reset or already finished: nothing to run
    }
    helpers.logger.debug(`running scenario ${scenarioId} (attempt ${claimed.attempt})`);
    // Several of a session at once: the session's other slots are taken by wake jobs, on any process.
    if (this.wide) await this.wakeSession(claimed.job.sessionId);
    // Stopped by a shutdown, this job's own run goes back at its place: the job is put back as it was.
    await this.runSessionOn(claimed, () => again(claimed.job.sessionId, original));
  }

  private get wide(): boolean {
    return this.options.maxRunningPerSession > 1;
  }

  private async wakeSession(sessionId: string): Promise<void> {
    await addWakeJobs(this.db, [sessionId], this.options.maxRunningPerSession - 1).catch((err: unknown) =>
      this.options.log.warn({ err, session_id: sessionId }, 'could not add the wake jobs of a session; the reaper adds them'),
    );
  }

  /**
   * A wake job (`max_running_per_session` above 1, see `addWakeJobs`): claims its session's head when
   * the session has a free slot and is the fair pick, and goes on with the session's runs as a run
   * job does; finds nothing, and ends.
   */
  private async wakeJob(payload: unknown): Promise<void> {
    if (this.state !== 'started') return;
    const { sessionId } = asWakePayload(payload);
    const claimed = await claimHeadOfSession(this.runs, sessionId, randomUUID(), this.claimOptions).catch((err: unknown) => {
      this.options.log.warn({ err, session_id: sessionId }, 'a wake job could not claim; the reaper wakes the session again');
      return undefined;
    });
    if (!claimed) return;
    await this.runSessionOn(claimed);
  }

  /**
   * Runs `first` and goes on with its session's runs (`RunHost.runSession`). While this job runs,
   * graphile-worker keeps the session's queue locked: no other job of the session starts anywhere. So
   * the job goes on with the session's next run as long as that run is the head of the whole queue
   * (FIFO across sessions holds), sparing each run a job of its own: each run's end claims the next
   * in the transaction that records it (complete-and-claim-next). graphile-worker completes the job
   * itself after the task returns, on its own connection: its API offers no way to complete a job
   * inside our transaction, so the job's own completion stays a separate round trip, paid once for
   * the whole sequence rather than once per run. A run stopped by a shutdown is queued again with a
   * job at its place in the queue: `putBackOwnJob` when it is `first` and this is its own job, a new
   * job otherwise.
   */
  private async runSessionOn(first: ClaimedRun, putBackOwnJob?: () => Promise<unknown>): Promise<void> {
    // The later runs' own jobs would only find them no longer QUEUED: removed in batches, so that no
    // worker spends a turn on them (while this job runs they wait in the session's locked queue anyway).
    // A run claimed by a wake job has a job of its own too.
    const taken: string[] = putBackOwnJob ? [] : [first.job.scenarioId];
    let removing: Promise<void> = Promise.resolve();
    const removeTaken = () => {
      const ids = taken.splice(0);
      if (ids.length > 0) removing = removing.then(() => removeRunJobs(this.db, ids)).catch(() => {});
      return removing;
    };
    const hooks: SessionRunHooks = {
      claimNext: () => this.nextClaim(),
      accept: (next) => {
        if (taken.push(next.job.scenarioId) >= REMOVE_BATCH) void removeTaken();
        return true;
      },
      ended: () => {},
    };
    try {
      const last = await this.host.runSession(first, hooks);
      if (last.stopReason !== 'shutdown') return;
      if (putBackOwnJob && last.scenarioId === first.job.scenarioId) {
        await putBackOwnJob();
        return;
      }
      // Its job must not be among the removals still to come, and those under way are done first:
      // none of them can remove the job added here.
      const at = taken.indexOf(last.scenarioId);
      if (at !== -1) taken.splice(at, 1);
      await removing;
      await addRunJobs(this.db, [last.scenarioId]);
    } finally {
      await removeTaken();
    }
  }

  private nextClaim(): NextClaim | undefined {
    return this.state === 'started' ? this.claimOptions : undefined;
  }
}
