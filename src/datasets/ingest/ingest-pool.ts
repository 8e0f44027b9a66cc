import { Piscina } from 'piscina';
import { ScenaristError } from '../../errors.js';
import type { IngestRunner } from './ingest-runner.js';
import { unwrapOutcome } from './ingest-runner.js';
import type { IngestTask, TaskOutcome, TaskResult } from './tasks.js';
import type { IngestWorkerConfig } from './worker-config.js';

export interface IngestPoolOptions extends IngestWorkerConfig {
  /** Uploads processed at the same time. */
  readonly threads: number;
  /** Heap a thread may use; past it only that thread dies and its upload gets a 413. */
  readonly maxHeapMb: number;
  /** How long an idle thread stays; it then exits and its heap goes back to the system. */
  readonly idleTimeoutMs: number;
}

/**
 * A pool of its own for uploads (apart from the algorithm workers), so an upload never waits behind a
 * scenario run and the reverse. Threads start with the first upload and exit when idle: between uploads
 * the server holds none of their memory. From the sources (vitest) the threads load tsx.
 */
export function createIngestPool(options: IngestPoolOptions): IngestRunner {
  const fromSources = import.meta.url.endsWith('.ts');
  const pool = new Piscina<IngestTask, TaskOutcome<TaskResult<IngestTask>>>({
    filename: new URL(`./ingest-worker.${fromSources ? 'ts' : 'js'}`, import.meta.url).href,
    minThreads: 0,
    maxThreads: options.threads,
    idleTimeout: options.idleTimeoutMs,
    concurrentTasksPerWorker: 1,
    atomics: 'async',
    resourceLimits: { maxOldGenerationSizeMb: options.maxHeapMb },
    workerData: { databaseUrl: options.databaseUrl, domain: options.domain } satisfies IngestWorkerConfig,
    ...(fromSources ? { execArgv: [...process.execArgv, '--import', 'tsx'] } : {}),
  });
  return {
    run: async <T extends IngestTask>(task: T) => {
      let outcome: TaskOutcome<TaskResult<IngestTask>>;
      try {
        outcome = await pool.run(task);
      } catch (err) {
        if ((err as { code?: unknown }).code === 'ERR_WORKER_OUT_OF_MEMORY') {
          throw new ScenaristError('TOO_LARGE', `the upload needs more than the ${options.maxHeapMb} MB of memory an upload may use; send it in smaller files`);
        }
        throw err;
      }
      return unwrapOutcome(outcome) as TaskResult<T>;
    },
    close: () => pool.destroy(),
  };
}
