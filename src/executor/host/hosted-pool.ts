import type { FilledHostOptions } from './host-options.js';
import { createWorkerPool, IdleWorkerPool, runThreadEntry } from './worker-pool.js';
import { RunHost, type LeaseHook } from './run-host.js';

/** What both executors are given for their run threads and run host (the distributed one's options extend these). */
export type HostedPoolOptions = Pick<
  FilledHostOptions,
  'store' | 'events' | 'log' | 'workers' | 'databaseUrl' | 'domain' | 'externalLimits' | 'threadHeapLimitMb' | 'poolIdleMs' | 'speedLayersOff' | 'cancelGraceMs' | 'progressFlushMs'
>;

/**
 * The run threads (started with the first run, stopped when idle) and the run host on them, made alike
 * for both executors; `lease` is the distributed executor's (see `LeaseHook`).
 */
export function hostedPool(options: HostedPoolOptions, lease?: LeaseHook): { pool: IdleWorkerPool; host: RunHost } {
  const { workers, threadHeapLimitMb, databaseUrl, domain, log, externalLimits, speedLayersOff, poolIdleMs } = options;
  const pool = new IdleWorkerPool(() => {
    // Once per start of the threads (with a run, after a quiet `poolIdleMs`): which build they load tells an operator what a start costs.
    const entry = runThreadEntry();
    log.info({ threads: workers, entry: entry.filename }, 'run threads starting');
    const config = { databaseUrl, domain, logLevel: log.level, externalLimits, speedLayersOff: [...speedLayersOff] };
    return createWorkerPool({ threads: workers, heapLimitMb: threadHeapLimitMb }, config, entry);
  }, poolIdleMs);
  const host = new RunHost({
    events: options.events,
    log,
    runs: options.store.runs,
    pool: () => pool,
    cancelGraceMs: options.cancelGraceMs,
    progressFlushMs: options.progressFlushMs,
    ...(lease ? { lease } : {}),
  });
  return { pool, host };
}
