import type { Logger } from 'pino';
import { NONE_OFF, type SpeedLayer } from '../../config/speed-layers.js';
import type { NoticeListener } from '../../store/postgres/notice-listener.js';
import type { Store } from '../../store/store.js';
import type { RunEvents } from '../events.js';
import { DEFAULT_WORKER_HEAP_LIMIT_MB, DEFAULT_WORKER_IDLE_TIMEOUT_MS } from '../../config/worker-threads.js';
import { DEFAULT_TIME_LIMITS, type TimeLimits } from '../queue/time-limits.js';
import { DEFAULT_EXTERNAL_LIMITS, type ExternalLimits } from '../run/external/external-limits.js';

export interface DistributedExecutorOptions {
  readonly store: Store;
  readonly events: RunEvents;
  readonly log: Logger;
  /** PostgreSQL URL: graphile-worker and the worker threads connect with it. */
  readonly databaseUrl: string;
  /**
   * The process's one LISTEN connection, on which cancels of runs are heard (shared with the event
   * feed). Without it the executor opens one of its own, closed with it.
   */
  readonly notices?: NoticeListener;
  readonly domain: string;
  /** Runs at once in this process (worker threads); 0 makes a pure API node that runs nothing. */
  readonly workers: number;
  /** How long a cancelled run may take to return after its abort signal before its thread is stopped. */
  readonly cancelGraceMs?: number;
  /** How often live progress is written (and the lease checked). */
  readonly progressFlushMs?: number;
  /** A run's lease: renewed every `leaseRenewMs`; a run not renewed for `leaseMs` is taken over. */
  readonly leaseMs?: number;
  readonly leaseRenewMs?: number;
  /** How often this process looks for expired leases and queued scenarios without a job. */
  readonly reapIntervalMs?: number;
  /** The time limits of runs (default: one hour for every algorithm). */
  readonly timeLimits?: TimeLimits;
  /** Each run thread's heap limit in MiB (`worker_heap_limit`). */
  readonly threadHeapLimitMb?: number;
  /** The run threads stop after this long without a run (`worker_idle_timeout`); the next run starts them again. */
  readonly poolIdleMs?: number;
  /** The speed layers switched off, handed to the run threads' store connections. */
  readonly speedLayersOff?: ReadonlySet<SpeedLayer>;
  /**
   * The bounds of external algorithms' programs, handed to the worker threads. Keep `cancelGraceMs` above
   * `killGraceMs`: the thread sends the SIGKILL, and a thread stopped before it would leave the program running.
   */
  readonly externalLimits?: ExternalLimits;
}

export type FilledDistributedExecutorOptions = Required<Omit<DistributedExecutorOptions, 'notices'>> & Pick<DistributedExecutorOptions, 'notices'>;

const isCount = (n: unknown): n is number => typeof n === 'number' && Number.isInteger(n) && n >= 0;

/** Fills defaults and validates once, naming the option; the result is frozen. */
export function fillDistributedExecutorOptions(options: DistributedExecutorOptions): FilledDistributedExecutorOptions {
  const filled = {
    cancelGraceMs: 2_000,
    progressFlushMs: 250,
    leaseMs: 5_000,
    leaseRenewMs: 1_000,
    reapIntervalMs: 1_000,
    timeLimits: DEFAULT_TIME_LIMITS,
    externalLimits: DEFAULT_EXTERNAL_LIMITS,
    threadHeapLimitMb: DEFAULT_WORKER_HEAP_LIMIT_MB,
    poolIdleMs: DEFAULT_WORKER_IDLE_TIMEOUT_MS,
    speedLayersOff: NONE_OFF,
    ...options,
  };
  for (const key of ['workers', 'cancelGraceMs', 'progressFlushMs', 'leaseMs', 'leaseRenewMs', 'reapIntervalMs', 'threadHeapLimitMb', 'poolIdleMs'] as const) {
    if (!isCount(filled[key])) throw new TypeError(`options.${key} must be a non-negative integer`);
  }
  if (filled.threadHeapLimitMb < 16) throw new TypeError('options.threadHeapLimitMb must be at least 16');
  if (filled.poolIdleMs === 0) throw new TypeError('options.poolIdleMs must be a positive integer');
  if (filled.leaseRenewMs * 2 > filled.leaseMs) throw new TypeError('options.leaseMs must be at least twice options.leaseRenewMs');
  if (!filled.databaseUrl.startsWith('postgres')) throw new TypeError('options.databaseUrl must be a postgres:// URL');
  return Object.freeze(filled);
}
