import type { Logger } from 'pino';
import { NONE_OFF, type SpeedLayer } from '../../config/speed-layers.js';
import { DEFAULT_WORKER_HEAP_LIMIT_MB, DEFAULT_WORKER_IDLE_TIMEOUT_MS } from '../../config/worker-threads.js';
import type { Store } from '../../store/store.js';
import type { RunEvents } from '../events.js';
import { DEFAULT_TIME_LIMITS, type TimeLimits } from '../queue/time-limits.js';
import { DEFAULT_EXTERNAL_LIMITS, type ExternalLimits } from '../run/external/external-limits.js';

/**
 * What the run host and its threads are given, by either executor (each executor's options extend
 * these with what only it needs): the store, the threads' count and bounds, and how runs are stopped,
 * timed and flushed.
 */
export interface HostOptions {
  readonly store: Store;
  readonly events: RunEvents;
  readonly log: Logger;
  /** Worker threads, hence runs at once in this process; 0 makes a process that runs nothing. */
  readonly workers: number;
  /** For the worker threads: their own store connection (datasets are read there) and the domain module to load. */
  readonly databaseUrl: string;
  readonly domain: string;
  /**
   * `max_running_per_session`: how many scenarios of one session may be PROCESSING at once (default 1,
   * the spec's rule). Every process of a deployment must use the same.
   */
  readonly maxRunningPerSession?: number;
  /** How long a stopped run may take to return after its abort signal before its thread is stopped. */
  readonly cancelGraceMs?: number;
  /** How often live progress (and a leased run's lease) is written; the status route reads memory meanwhile. */
  readonly progressFlushMs?: number;
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

/** The host's options with every default filled in. */
export type FilledHostOptions = Required<HostOptions>;

const HOST_DEFAULTS = {
  cancelGraceMs: 2_000,
  progressFlushMs: 250,
  timeLimits: DEFAULT_TIME_LIMITS,
  externalLimits: DEFAULT_EXTERNAL_LIMITS,
  threadHeapLimitMb: DEFAULT_WORKER_HEAP_LIMIT_MB,
  poolIdleMs: DEFAULT_WORKER_IDLE_TIMEOUT_MS,
  speedLayersOff: NONE_OFF,
  maxRunningPerSession: 1,
} as const;

export const isCount = (n: unknown): n is number => typeof n === 'number' && Number.isInteger(n) && n >= 0;

/** Refuses `options[key]` unless it is a non-negative integer (or, with `positive`, above 0). */
export function requireCount<T extends object>(options: T, key: keyof T & string, positive = false): void {
  const value = options[key];
  if (!isCount(value) || (positive && value === 0)) throw new TypeError(`options.${key} must be a ${positive ? 'positive' : 'non-negative'} integer`);
}

/**
 * The one check of the host's options, the same for both executors: fills the defaults (with
 * `ownDefaults`, an executor's own; its other options pass through unchanged) and throws a `TypeError` naming the first wrong option. Each
 * executor's options file calls it, then checks what only it has; the result is frozen there.
 */
export function fillHostOptions<T extends HostOptions>(options: T, ownDefaults: Partial<T> = {}): T & FilledHostOptions {
  // An option given as undefined takes its default, as an option left out does.
  const given = Object.fromEntries(Object.entries(options).filter(([, value]) => value !== undefined));
  const filled = { ...HOST_DEFAULTS, ...ownDefaults, ...given } as T & FilledHostOptions;
  requireCount(filled, 'workers');
  requireCount(filled, 'cancelGraceMs');
  requireCount(filled, 'progressFlushMs', true);
  requireCount(filled, 'poolIdleMs', true);
  requireCount(filled, 'maxRunningPerSession', true);
  requireCount(filled, 'threadHeapLimitMb');
  if (filled.threadHeapLimitMb < 16) throw new TypeError('options.threadHeapLimitMb must be at least 16');
  if (filled.databaseUrl === '') throw new TypeError('options.databaseUrl must not be empty');
  if (filled.domain === '') throw new TypeError('options.domain must not be empty');
  return filled;
}
