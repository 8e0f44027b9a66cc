import type { Logger } from 'pino';
import { NONE_OFF, type SpeedLayer } from '../../config/speed-layers.js';
import { DEFAULT_WORKER_HEAP_LIMIT_MB, DEFAULT_WORKER_IDLE_TIMEOUT_MS } from '../../config/worker-threads.js';
import type { Store } from '../../store/store.js';
import type { RunEvents } from '../events.js';
import { DEFAULT_TIME_LIMITS, type TimeLimits } from '../queue/time-limits.js';
import { DEFAULT_EXTERNAL_LIMITS, type ExternalLimits } from '../run/external/external-limits.js';

export interface LocalExecutorOptions {
  readonly store: Store;
  readonly events: RunEvents;
  readonly log: Logger;
  /** Worker threads, hence runs at once across sessions; 0 makes this process run nothing. */
  readonly workers: number;
  /** For the worker threads: their own store connection and the domain module to load. */
  readonly databaseUrl: string;
  readonly domain: string;
  /** How long a cancelled run may take to return after its abort signal before its thread is stopped. */
  readonly cancelGraceMs?: number;
  /** How often live progress is written to the database (the status route reads memory meanwhile). */
  readonly progressFlushMs?: number;
  /** The time limits of runs (default: one hour for every algorithm); the run threads apply them too. */
  readonly timeLimits?: TimeLimits;
  /** Each run thread's heap limit in MiB (`worker_heap_limit`). */
  readonly threadHeapLimitMb?: number;
  /** The run threads stop after this long without a run (`worker_idle_timeout`); the next run starts them again. */
  readonly poolIdleMs?: number;
  /** The speed layers switched off, handed to the run threads' store connections. */
  readonly speedLayersOff?: ReadonlySet<SpeedLayer>;
  /**
   * How long a run thread whose session has nothing claimable waits for that session's next run
   * before it gives its thread back (see `ChainedRuns.lingerMs`).
   */
  readonly chainLingerMs?: number;
  /**
   * How often the queue is looked at though nothing said a run was queued: a backstop for a path that
   * queued a run without telling the executor, which then waits this long at most, not until another
   * request dispatches. A look while nothing waits is one indexed read.
   */
  readonly queueSweepMs?: number;
  /** The queue knowledge that skips empty looks (a speed layer; off only for a benchmark). */
  readonly quietQueue?: boolean;
  /**
   * The bounds of external algorithms' programs, handed to the worker threads. Keep `cancelGraceMs` above
   * `killGraceMs`: the thread sends the SIGKILL, and a thread stopped before it would leave the program running.
   */
  readonly externalLimits?: ExternalLimits;
}

export type FilledLocalExecutorOptions = Required<LocalExecutorOptions>;

const isCount = (n: unknown): n is number => typeof n === 'number' && Number.isInteger(n) && n >= 0;

/** Fills defaults and validates once, with messages naming the option; the result is frozen. */
export function fillLocalExecutorOptions(options: LocalExecutorOptions): FilledLocalExecutorOptions {
  const filled = {
    cancelGraceMs: 2_000,
    progressFlushMs: 250,
    timeLimits: DEFAULT_TIME_LIMITS,
    externalLimits: DEFAULT_EXTERNAL_LIMITS,
    threadHeapLimitMb: DEFAULT_WORKER_HEAP_LIMIT_MB,
    poolIdleMs: DEFAULT_WORKER_IDLE_TIMEOUT_MS,
    speedLayersOff: NONE_OFF,
    quietQueue: true,
    chainLingerMs: 1_000,
    queueSweepMs: 5_000,
    ...options,
  };
  if (!isCount(filled.workers)) throw new TypeError('options.workers must be a non-negative integer');
  if (!isCount(filled.threadHeapLimitMb) || filled.threadHeapLimitMb < 16) throw new TypeError('options.threadHeapLimitMb must be an integer of at least 16');
  if (!isCount(filled.poolIdleMs) || filled.poolIdleMs === 0) throw new TypeError('options.poolIdleMs must be a positive integer');
  if (!isCount(filled.cancelGraceMs)) throw new TypeError('options.cancelGraceMs must be a non-negative integer');
  if (!isCount(filled.progressFlushMs) || filled.progressFlushMs === 0) {
    throw new TypeError('options.progressFlushMs must be a positive integer');
  }
  if (!isCount(filled.queueSweepMs) || filled.queueSweepMs === 0) throw new TypeError('options.queueSweepMs must be a positive integer');
  if (!isCount(filled.chainLingerMs)) throw new TypeError('options.chainLingerMs must be a non-negative integer');
  if (filled.databaseUrl === '') throw new TypeError('options.databaseUrl must not be empty');
  if (filled.domain === '') throw new TypeError('options.domain must not be empty');
  return Object.freeze(filled);
}
