import { randomUUID } from 'node:crypto';
import { speedLayerOn } from '../../config/speed-layers.js';
import { isActive } from '../../model/run-state/state-machine.js';
import type { StoredStatus } from '../../store/database.js';
import type { RunEvents, RunRef } from '../events.js';
import type { Executor, LiveRun } from '../executor.js';
import type { RunHost, HostedOutcome, ChainedRunHooks } from '../host/run-host.js';
import { hostedPool } from '../host/hosted-pool.js';
import { INTERRUPTED_TWICE } from '../../model/run-state/run-error.js';
import { claim, claimHeadOfSession, type ClaimOptions } from '../queue/claim.js';
import type { ClaimedRun } from '../queue/claimed-run.js';
import { nextQueued, processingSessions, type ClaimExclusions, type QueueHead } from '../../store/next-queued.js';
import { keyOf, type NextClaim } from '../queue/record-outcome.js';
import { timeLimitOf } from '../queue/time-limits.js';
import { ClaimHold } from './claim-hold.js';
import { fillLocalExecutorOptions, type FilledLocalExecutorOptions, type LocalExecutorOptions } from './local-executor-options.js';
import { QuietQueue } from './quiet-queue.js';
import type { IdleWorkerPool } from './worker-pool.js';

const now = () => new Date().toISOString();

/** What a look at the queue found: the head to claim (and whether the look proved it the only one), or nothing. */
type Look =
  | { readonly kind: 'claimed'; readonly claimed: ClaimedRun }
  | { readonly kind: 'head'; readonly head: QueueHead; readonly onlyOne: boolean; readonly look: number }
  | { readonly kind: 'empty' };

/**
 * Runs scenarios in this process on a pool of worker threads: per-session FIFO, at most one
 * PROCESSING scenario per session, sessions in parallel up to `workers`. All queue state is in the
 * database; memory holds only the runs in flight (`RunHost`) and what the last look proved about the
 * queue (to skip looks that could only come back empty), so a restart re-reads the queue and loses
 * nothing. A run's thread records its end and claims its session's next run in that transaction
 * (complete-and-claim-next), then runs it (`run-chain.ts`): a session's queue runs on the threads'
 * cores, and this thread only hears what happened. Claims are held (`ClaimHold`) while a cancel or a
 * session's deletion is under way, and a run a thread claimed just before is stopped as the host
 * hears of it (`reasonToStop`, `Chains.stopWhenClaimed`). A thread whose session has nothing
 * claimable waits a while for the next run of it (`chainLingerMs`), told here when one is queued.
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
  /** Raised while claims must wait (cancels, a session's deletion, the shutdown); read by the run threads. */
  private readonly claimHold = new ClaimHold();
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
    this.claimOptions = { timeLimitOf: timeLimitOf(this.options.timeLimits) };
    ({ pool: this.pool, host: this.host } = hostedPool(
      this.options,
      speedLayerOn('run-chain', this.options.speedLayersOff) ? { chain: { hold: this.claimHold, timeLimits: this.options.timeLimits, lingerMs: this.options.chainLingerMs } } : {},
    ));
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
    const exclude: ClaimExclusions = { sessions: [...this.host.sessions(), ...this.stoppingSessions], ids: [...this.cancelling] };
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
    // Behind a run of its session here, it cannot start before that run settles, and settling
    // claims or dispatches: looking now would only find nothing (a sequence of runs would pay it every time).
    if (this.host.runsSession(ref.sessionId)) return;
    // A thread waiting for its session's next run claims it there, or says it could not.
    if (this.host.chains.tellQueued(ref.sessionId)) return;
    this.dispatch();
  }

  live(scenarioId: string): LiveRun | undefined {
    return this.host.live(scenarioId);
  }

  async cancel(ref: RunRef, remove: () => Promise<StoredStatus | undefined>): Promise<void> {
    this.cancelling.add(ref.scenarioId);
    const release = this.claimHold.hold();
    try {
      this.stopWhenHeardOf(ref);
      await this.host.stop(ref.scenarioId, 'cancel');
      const removed = await remove();
      if (removed !== undefined && isActive(removed)) this.events.emit('run:cancelled', ref);
    } finally {
      release();
      this.cancelling.delete(ref.scenarioId);
      // Its row may still be queued if `remove` failed: look at the whole queue again.
      this.quiet.forget();
      this.dispatch();
    }
  }

  async abort(ref: RunRef): Promise<void> {
    // The row is no longer QUEUED: whatever the queue knew about it is stale.
    this.quiet.forget();
    this.stopWhenHeardOf(ref);
    await this.host.stop(ref.scenarioId, 'cancel');
  }

  /**
   * A run being cancelled that is not hosted here: a thread going on with its session may have claimed
   * it just before (the claim hold rose too late), so it is stopped when heard of.
   */
  private stopWhenHeardOf(ref: RunRef): void {
    if (!this.host.has(ref.scenarioId)) this.host.chains.stopWhenClaimed(ref);
  }

  /** Why a run just claimed (here, or by a thread going on with its session) must not go on, if it must not. */
  private readonly reasonToStop: ChainedRunHooks['check'] = (claimed) => {
    if (this.state !== 'started') return 'shutdown';
    const { scenarioId, sessionId } = claimed.job;
    return this.cancelling.has(scenarioId) || this.stoppingSessions.has(sessionId) ? 'cancel' : undefined;
  };

  async cancelSession(sessionId: string, remove: () => Promise<RunRef[]>): Promise<void> {
    this.stoppingSessions.add(sessionId);
    const release = this.claimHold.hold();
    try {
      await this.host.stopSession(sessionId, 'cancel');
      for (const ref of await remove()) {
        // A thread may have claimed it unheard, just before the hold rose.
        this.stopWhenHeardOf(ref);
        this.events.emit('run:cancelled', ref);
      }
    } finally {
      release();
      this.stoppingSessions.delete(sessionId);
      this.quiet.forget();
      this.dispatch();
    }
  }

  async close(): Promise<void> {
    if (this.state === 'closed') return;
    this.state = 'closed';
    clearInterval(this.sweeper);
    // For good: no thread claims anything more, and none waits for a run.
    this.claimHold.hold();
    this.host.chains.releaseLingering(true);
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

  /** While a slot is free: look at the queue, claim its head, launch it. */
  private async fillSlots(): Promise<void> {
    let lostClaim: string | undefined;
    // Sessions PROCESSING in the database without running here: read only once a claim has lost,
    // since memory knows this executor's runs and the claim re-checks the rule in the database.
    let elsewhere: readonly string[] = [];
    while (this.state === 'started' && this.host.size < this.options.workers) {
      const exclude: ClaimExclusions = { sessions: [...this.host.sessions(), ...this.stoppingSessions, ...elsewhere], ids: [...this.cancelling] };
      const found = await this.look(exclude);
      if (found.kind === 'empty') return;
      const claimed = found.kind === 'claimed' ? found.claimed : await claim(this.runs, found.head.id, randomUUID(), this.claimOptions);
      if (!claimed) {
        if (found.kind === 'claimed') continue;
        // Another request changed it first, or its session has a PROCESSING scenario this executor
        // does not run; a second loss on the same head means it is not claimable now.
        this.quiet.forget();
        if (lostClaim === found.head.id) return;
        lostClaim = found.head.id;
        elsewhere = await processingSessions(this.db);
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
   * Launches a run just claimed, in this turn; unless the executor has closed meanwhile (then it goes
   * back in the queue) or it is being cancelled (its canceller is about to delete the row).
   */
  private launchClaimed(claimed: ClaimedRun): 'launched' | 'cancelled' | 'closed' {
    if (this.state !== 'started') {
      this.track(this.runs.requeueStopped(keyOf(claimed)));
      return 'closed';
    }
    if (this.reasonToStop(claimed) !== undefined) return 'cancelled';
    // A thread waiting for another session's next run is taken back, so that this run does not wait for it.
    if (this.host.size + this.host.chains.lingering >= this.options.workers) this.host.chains.releaseLingering();
    void this.host.launch(
      claimed,
      () => this.nextClaim(claimed.job.sessionId),
      (ended) => this.afterRun(ended),
      {
        check: (next) => {
          this.quiet.claimed(next.job);
          return this.reasonToStop(next);
        },
        idle: () => this.dispatch(),
      },
    );
    return 'launched';
  }

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

  /**
   * A run's outcome is recorded: the next run of its session, claimed with it here, takes its slot at
   * once (one its thread claimed already runs); then free slots fill.
   */
  private afterRun({ next }: HostedOutcome): void {
    if (next) this.launchClaimed(next);
    this.dispatch();
  }
}
