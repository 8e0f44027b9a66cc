import { Piscina } from 'piscina';
import { threadEntry } from '../../async/thread-entry.js';
import type { RunOutcome } from '../run/job.js';
import type { WorkerConfig, WorkerTask } from './worker-task.js';

/** The slice of piscina the executor uses. */
export interface WorkerPool {
  run(task: WorkerTask, options: { signal: AbortSignal; transferList: WorkerTask['insight'][] }): Promise<RunOutcome>;
  destroy(): Promise<void>;
}

/** A pool of `threads` worker threads running `worker-entry` (see `threadEntry` for which file), started at once. */
export function createWorkerPool(threads: number, config: WorkerConfig): WorkerPool {
  const entry = threadEntry(import.meta.url, 'worker-entry');
  return new Piscina<WorkerTask, RunOutcome>({
    filename: entry.filename,
    // Every thread starts with the pool (the executor creates it once a scenario exists) and stays:
    // each holds the loaded domain, a store connection and the dataset cache, loaded as it starts.
    minThreads: threads,
    maxThreads: threads,
    idleTimeout: Number.POSITIVE_INFINITY,
    concurrentTasksPerWorker: 1,
    // 'async' lets a thread's event loop run between tasks (store connections, log flushing).
    atomics: 'async',
    workerData: config,
    execArgv: entry.execArgv,
  });
}
