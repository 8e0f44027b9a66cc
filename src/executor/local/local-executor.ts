import { randomUUID } from 'node:crypto';
import { isActive } from '../../model/run-state/state-machine.js';
import type { StoredStatus } from '../../store/database.js';
import type { RunEvents, RunRef } from '../events.js';
import type { Executor, LiveRun } from '../executor.js';
import type { RunHost, SessionRunHooks } from '../host/run-host.js';
import { hostedPool } from '../host/hosted-pool.js';
import { INTERRUPTED_TWICE } from '../../model/run-state/run-error.js';
import { claim, claimHeadOfSession, type ClaimOptions } from '../queue/claim.js';
import type { ClaimedRun } from '../queue/claimed-run.js';
import { nextQueued, processingSessions, type ClaimExclusions, type QueueHead } from '../../store/next-queued.js';
import { keyOf, type NextClaim, type StopReason } from '../queue/record-outcome.js';
import { timeLimitOf } from '../queue/time-limits.js';
import { fillLocalExecutorOptions, type FilledLocalExecutorOptions, type LocalExecutorOptions } from './local-executor-options.js';
import { QuietQueue } from './quiet-queue.js';
import type { IdleWorkerPool } from '../host/worker-pool.js';

const now = () => new Date().toISOString();

/** What a look at the queue found: the head to claim (and whether the look proved it the only one), or nothing. */
type Look =
  | { readonly kind: 'claimed'; readonly claimed: ClaimedRun }
  | { readonly kind: 'head'; readonly head: QueueHead; readonly onlyOne: boolean; readonly look: number }
  | { readonly kind: 'empty' };

/**
 * Runs scenarios in this process on a pool of worker threads: per-session FIFO, at most
 * `max_running_per_session` PROCESSING scenarios per session, sessions in parallel up to `workers`.
 * All queue state is in the database; memory holds only the runs in flight (`RunHost`) and what the
 * last look proved about the queue (to skip looks that could only come back empty), so a restart
 * re-reads the queue and loses nothing. A run's end claims its session's next run in the transaction
 * that records it (complete-and-claim-next), and the host goes on with it (`RunHost.runSession`, the
 * route both executors take); free slots are filled from the queue (`dispatch`). Nothing is claimed
 * with a run's end while a cancel or a session's deletion is under way (`nextClaim`), and a run
 * claimed as one began is not started (`accept`).
 */
export class LocalExecutor implements Executor {
  readonly events: RunEvents;
  private readonly options: FilledLocalExecutorOptions;
  private state: 'new' | 'started' | 'closed' = 'new';
  private readonly pool: IdleWorkerPool;
  private readonly host: RunHost;
  private stopWarming: (() => void) | undefined;
  /** Scenarios and sessions being cancelled: never claimed meanwhile. */
  private readonly cancelling = new Set<string>();
  private readonly stoppingSessions = new Set<string>();
  private readonly claimOptions: ClaimOptions;
  /** Lets a dispatch skip looks at the queue that could only come back empty. */
  private readonly quiet: QuietQueue;
  private dispatching: Promise<void> | undefined;
  private readonly pendingWrites = new Set<Promise<unknown>>();
  private dispatchAgain = false;
  private sweeper: NodeJS.Timeout | undefined;
  private sweeping = false;

  constructor(options: LocalExecutorOptions) {
    this.options = fillLocalExecutorOptions(options);
    this.events = this.options.events;
    this.quiet = new QuietQueue(this.options.quietQueue);
    const maxRunning = this.options.maxRunningPerSession;
    this.claimOptions = { timeLimitOf: timeLimitOf(this.options.timeLimits), maxRunning };
    ({ pool: this.pool, host: this.host } = hostedPool(this.options));
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
    // (domain loaded, store open): a process that only serves datasets never starts them. They stop
    // again once idle, and the next scenario created or run starts them again.
    this.stopWarming = this.events.on('run:created', () => this.pool.warm());
    this.host.startFlushing();
    this.state = 'started';
    this.sweeper = setInterval(() => this.sweepQueue(), this.options.queueSweepMs).unref();
    this.dispatch();
  }

  /**
   * The backstop (`queueSweepMs`): a run queued by a path that did not call `queued` is found here.
   * One read of the queue's head outside the sessions this executor runs (their runs claim their
   * session's next as they end); only when it finds one is the queue knowledge dropped and a dispatch
   * made, which claims in queue order through the same conditional claim as every other: the sweep
   * neither reorders the queue nor starts a run twice.
   */
  private sweepQueue(): void {
    if (this.state !== 'started' || this.sweeping || this.dispatching !== undefined || this.host.size >= this.options.workers) return;
    this.sweeping = true;
    const exclude: ClaimExclusions = { sessions: [...this.host.sessionsWith(this.options.maxRunningPerSession), ...this.stoppingSessions], ids: [...this.cancelling] };
    nextQueued(this.db, exclude, 1)
      .then((heads) => {
        if (heads.length === 0 || this.state !== 'started') return;
        this.quiet.forget();
        this.dispatch();
      })
      .catch((err: unknown) => this.options.log.warn({ err }, 'executor: could not look at the queue; looking again at the next sweep'))
      .finally(() => {
        this.sweeping = false;
      });
  }

  queued(ref: RunRef): void {
    this.events.emit('run:queued', { ...ref, recovered: false });
    this.quiet.queued(ref);
    // Behind as many runs of its session here as it may have, it cannot start before one settles, and
    // settling claims or dispatches: looking now would only find nothing (a sequence of runs would pay it every time).
    if (this.host.runningIn(ref.sessionId) >= this.options.maxRunningPerSession) return;
    this.dispatch();
  }

  live(scenarioId: string): LiveRun | undefined {
    return this.host.live(scenarioId);
  }

  async cancel(ref: RunRef, remove: () => Promise<StoredStatus | undefined>): Promise<void> {
    this.cancelling.add(ref.scenarioId);
    try {
      await this.host.stop(ref.scenarioId, 'cancel');
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
    await this.host.stop(ref.scenarioId, 'cancel');
  }

  /** Why a run just claimed must not start, if it must not. */
  private reasonToStop(claimed: ClaimedRun): StopReason | undefined {
    if (this.state !== 'started') return 'shutdown';
    const { scenarioId, sessionId } = claimed.job;
    return this.cancelling.has(scenarioId) || this.stoppingSessions.has(sessionId) ? 'cancel' : undefined;
  }

  async cancelSession(sessionId: string, remove: () => Promise<RunRef[]>): Promise<void> {
    this.stoppingSessions.add(sessionId);
    try {
      await this.host.stopSession(sessionId, 'cancel');
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
    clearInterval(this.sweeper);
    this.host.stopFlushing();
    this.stopWarming?.();
    await this.dispatching;
    await this.host.stopAll('shutdown');
    await Promise.all(this.pendingWrites);
    await this.pool.destroy();
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

  /**
   * While a slot is free: look at the queue, claim its head, launch it. Sessions running fewer runs
   * here go first (`max_running_per_session` above 1): the look first leaves out every session with a
   * run here, then those with two, and so on up to the limit, so a free thread goes to the session
   * running fewest, and among those to the oldest queued run (with a limit of 1, the one look of the
   * queue's FIFO head outside the busy sessions).
   */
  private async fillSlots(): Promise<void> {
    let lostClaim: string | undefined;
    // Sessions PROCESSING in the database without running here: read only once a claim has lost,
    // since memory knows this executor's runs and the claim re-checks the rule in the database.
    let elsewhere: readonly string[] = [];
    while (this.state === 'started' && this.host.size < this.options.workers) {
      let exclude: ClaimExclusions = { sessions: [], ids: [] };
      let found: Look = { kind: 'empty' };
      for (let level = 1; level <= this.options.maxRunningPerSession && found.kind === 'empty'; level++) {
        exclude = { sessions: [...this.host.sessionsWith(level), ...this.stoppingSessions, ...elsewhere], ids: [...this.cancelling] };
        found = await this.look(exclude);
      }
      if (found.kind === 'empty') return;
      const claimed = found.kind === 'claimed' ? found.claimed : await claim(this.runs, found.head.id, randomUUID(), this.claimOptions);
      if (!claimed) {
        if (found.kind === 'claimed') continue;
        // Another request changed it first, or its session has a PROCESSING scenario this executor
        // does not run; a second loss on the same head means it is not claimable now.
        this.quiet.forget();
        if (lostClaim === found.head.id) return;
        lostClaim = found.head.id;
        const here = new Set(this.host.sessionsWith(1));
        elsewhere = (await processingSessions(this.db)).filter((session) => !here.has(session));
        continue;
      }
      const started = this.launchClaimed(claimed);
      if (started === 'closed') return;
      if (started === 'launched' && found.kind === 'head' && found.onlyOne) this.quiet.nothingOutside(found.look, exclude.sessions);
    }
  }

  /**
   * The queue's head outside `exclude`, from as little as memory allows: nothing when the queue is
   * known to be quiet there; a claim of the one session known to hold queued rows (no look); the
   * lone newcomer (no look); else a read of the two oldest rows.
   */
  private async look(exclude: ClaimExclusions): Promise<Look> {
    if (this.quiet.isQuiet(exclude.sessions)) return { kind: 'empty' };
    const look = this.quiet.beforeLook();
    // Only one session may hold queued rows outside the exclusions (a session going on with its
    // queue): its head is claimed without a look. Should an excluded session hold an older row, the
    // queue's head is elsewhere, this claim takes nothing and the look below decides.
    const only = exclude.ids.length === 0 ? this.quiet.onlySession(exclude.sessions) : undefined;
    const claimed = only === undefined ? undefined : await claimHeadOfSession(this.runs, only, randomUUID(), this.claimOptions);
    if (claimed) return { kind: 'claimed', claimed };
    // A lone newcomer is the head there: claimed without a look. Otherwise two rows are read,
    // since a lone head means nothing else is queued outside the exclusions once it is claimed.
    const lone = this.quiet.loneHead(exclude.sessions, exclude.ids);
    const heads = lone ? [{ id: lone.scenarioId, sessionId: lone.sessionId }] : await nextQueued(this.db, exclude, 2);
    const head = heads[0];
    if (!head) {
      if (exclude.ids.length === 0) this.quiet.nothingOutside(look, exclude.sessions);
      return { kind: 'empty' };
    }
    return { kind: 'head', head, onlyOne: lone !== undefined || (heads.length === 1 && exclude.ids.length === 0), look };
  }

  /**
   * Launches a run just claimed, in this turn, with its session's runs after it (`RunHost.runSession`);
   * unless the executor has closed meanwhile (then it goes back in the queue) or it is being cancelled
   * (its canceller is about to delete the row).
   */
  private launchClaimed(claimed: ClaimedRun): 'launched' | 'cancelled' | 'closed' {
    const refused = this.refuse(claimed);
    if (refused !== undefined) return refused;
    void this.host.runSession(claimed, this.sessionHooks);
    return 'launched';
  }

  /** Why a claimed run does not start here (and what was done with it), or undefined when it starts. */
  private refuse(claimed: ClaimedRun): 'cancelled' | 'closed' | undefined {
    if (this.state !== 'started') {
      this.track(this.runs.requeueStopped(keyOf(claimed)));
      return 'closed';
    }
    return this.reasonToStop(claimed) === undefined ? undefined : 'cancelled';
  }

  /**
   * How a session's runs go on here: each end claims the session's next run when nothing forbids it;
   * that run starts unless refused; then free slots fill.
   */
  private readonly sessionHooks: SessionRunHooks = {
    claimNext: (sessionId) => this.nextClaim(sessionId),
    accept: (next) => {
      // No longer queued: if it was the queue's lone newcomer, it is no longer.
      this.quiet.claimed(next.job);
      return this.refuse(next) === undefined;
    },
    ended: () => this.dispatch(),
  };

  /** Writes `close` waits for (a claimed run put back in the queue) before the store goes. */
  private track(write: Promise<unknown>): void {
    const tracked = write
      .catch((err: unknown) => this.options.log.error({ err }, 'executor: could not put a claimed run back in the queue; the next start recovers it'))
      .finally(() => this.pendingWrites.delete(tracked));
    this.pendingWrites.add(tracked);
  }

  /** Whether a run of `sessionId` that ends now claims its session's next run with its outcome. */
  private nextClaim(sessionId: string): NextClaim | undefined {
    if (this.state !== 'started' || this.stoppingSessions.has(sessionId) || this.cancelling.size > 0) return undefined;
    return this.claimOptions;
  }
}
