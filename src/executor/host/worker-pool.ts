import { Piscina } from 'piscina';
import { threadEntry, type ThreadEntry } from '../../async/thread-entry.js';
import type { WorkerConfig, WorkerTask, WorkerTaskResult } from './worker-task.js';

/** The slice of piscina the executor uses. */
export interface WorkerPool {
  run(task: WorkerTask, options: { signal: AbortSignal; transferList: WorkerTask['insight'][] }): Promise<WorkerTaskResult>;
  destroy(): Promise<void>;
}

/** How the run threads are sized and bounded. */
export interface WorkerPoolLimits {
  readonly threads: number;
  /** Each thread's V8 heap (old generation) limit in MiB: past it the thread ends and its run FAILS, the process lives on. */
  readonly heapLimitMb: number;
}

/**
 * The young generation of a run thread, in MiB. V8 lets a thread's young generation grow to 16 MiB
 * semi-spaces, and a thread that runs many short runs filled them: 1,000 Instant runs on two threads
 * took the server's peak RSS from 110 to 292 MB. Capped at 6 MiB (2 MiB semi-spaces) the peak was
 * 237 MB, and 3 MiB gave 231 MB; the runs' times stayed within their rounds' spread
 * (docs/benchmarks.md, "Start-up and memory").
 */
const RUN_THREAD_YOUNG_GENERATION_MB = 6;

/** The file a run thread starts on (see `threadEntry`). */
export const runThreadEntry = () => threadEntry(import.meta.url, 'worker-entry');

/** A pool of `threads` worker threads running `worker-entry` (see `runThreadEntry`), started at once. */
export function createWorkerPool(limits: WorkerPoolLimits, config: WorkerConfig, entry: ThreadEntry = runThreadEntry()): WorkerPool {
  return new Piscina<WorkerTask, WorkerTaskResult>({
    filename: entry.filename,
    // Every thread starts with the pool and stays while it lives (`IdleWorkerPool` ends the whole pool
    // when idle): each holds the loaded domain, a store connection and the dataset cache.
    minThreads: limits.threads,
    maxThreads: limits.threads,
    idleTimeout: Number.POSITIVE_INFINITY,
    concurrentTasksPerWorker: 1,
    // 'async' lets a thread's event loop run between tasks (store connections, log flushing).
    atomics: 'async',
    workerData: config,
    execArgv: entry.execArgv,
    resourceLimits: { maxOldGenerationSizeMb: limits.heapLimitMb, maxYoungGenerationSizeMb: RUN_THREAD_YOUNG_GENERATION_MB },
  });
}

/**
 * A worker pool started on first use and destroyed once no run has used it for `idleMs`, returning
 * its threads' memory (each holds a domain, a store connection and parsed datasets); the next run
 * starts a new one. `warm` starts it ahead of a run, so that the run finds its threads ready.
 */
export class IdleWorkerPool implements WorkerPool {
  private pool: WorkerPool | undefined;
  private inFlight = 0;
  private idleTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly start: () => WorkerPool,
    private readonly idleMs: number,
  ) {}

  /** Whether the threads are up (for tests and metrics). */
  get started(): boolean {
    return this.pool !== undefined;
  }

  /** Starts the threads now, if they are not up; they stop again after `idleMs` without a run. */
  warm(): void {
    this.current();
    if (this.inFlight === 0) this.armIdle();
  }

  async run(task: WorkerTask, options: { signal: AbortSignal; transferList: WorkerTask['insight'][] }): Promise<WorkerTaskResult> {
    const pool = this.current();
    this.inFlight++;
    clearTimeout(this.idleTimer);
    try {
      return await pool.run(task, options);
    } finally {
      if (--this.inFlight === 0) this.armIdle();
    }
  }

  async destroy(): Promise<void> {
    clearTimeout(this.idleTimer);
    const pool = this.pool;
    this.pool = undefined;
    await pool?.destroy();
  }

  private current(): WorkerPool {
    this.pool ??= this.start();
    return this.pool;
  }

  private armIdle(): void {
    clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => {
      if (this.inFlight > 0) return;
      // A run launched meanwhile starts a new pool: this one is forgotten before it is destroyed.
      void this.destroy().catch(() => undefined);
    }, this.idleMs);
    this.idleTimer.unref();
  }
}
