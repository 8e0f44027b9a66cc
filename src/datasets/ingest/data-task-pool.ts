import { stat } from 'node:fs/promises';
import { MessageChannel } from 'node:worker_threads';
import { Piscina } from 'piscina';
import { threadEntry } from '../../async/thread-entry.js';
import { ScenaristError } from '../../errors.js';
import type { IngestRunner, RunOptions } from './ingest-runner.js';
import { unwrapOutcome } from './ingest-runner.js';
import type { AuditedTask, IngestTask, TaskOutcome, TaskResult } from './tasks.js';
import { activeAuditScope, carriedAuditDraft } from '../../model/audit/audit-scope.js';
import { PoolSlots, type PoolWork } from './pool-slots.js';
import type { IngestWorkerConfig } from './worker-config.js';
import { errors } from '../../error-factories.js';

export interface DataTaskPoolOptions extends IngestWorkerConfig {
  /** What the pool runs: uploads, or domain views (whose refusals then name the view). */
  readonly work: PoolWork;
  /** Tasks of any size processed at the same time. */
  readonly threads: number;
  /** Threads beyond `threads` that only small uploads may take (see `PoolSlots`); 0 for views. */
  readonly expressThreads: number;
  /** Heap a thread may use (`data_thread_heap`); past it only that thread dies and its task is refused. */
  readonly maxHeapMb: number;
  /** How long an idle thread stays (`data_thread_idle`); it then exits and its heap goes back to the system. */
  readonly idleTimeoutMs: number;
  /** Longest work on one task (`upload_time_limit`); past it its thread is stopped and the task refused. */
  readonly timeLimitMs: number;
  /** Longest wait for a free thread (`upload_queue_wait`); past it a 503 (see `PoolSlots`). */
  readonly queueWaitMs: number;
}

/** An `IngestRunner` on threads of its own, which says how many it holds now. */
export interface DataTaskPool extends IngestRunner {
  /** Threads alive now: 0 before the first task and once every thread has been idle `idleTimeoutMs`. */
  readonly threads: number;
}

/** Uploads that may wait for a thread, per thread. */
const WAITING_PER_THREAD = 4;

/**
 * An upload whose staged bytes are at most this is small: it may take the express thread. A form's worth
 * of data (the example's files are 20 KB; 10k rows of CSV are about 500 KB) whose ETL takes milliseconds.
 */
export const SMALL_UPLOAD_BYTES = 1024 * 1024;

/** How long a thread may take to start (load the domain, open its store connection) before a task's own time limit begins. */
const THREAD_START_ALLOWANCE_MS = 60_000;

/** Why a running task was stopped; the abort reasons given to piscina. */
const TIME_LIMIT = Symbol('upload time limit');
const CLIENT_GONE = Symbol('client gone');

/**
 * A thread pool for the data work the HTTP thread hands off: uploads (ETL, from-json) and domain views,
 * whose threads hold the domain and a store connection. The runtime makes one for uploads and another
 * for views (both apart from the algorithm workers), so an upload never waits behind a scenario run or
 * a view, and the reverse. The pool is made with the first task, its threads start as tasks come and
 * exit when idle: between tasks the server holds none of their memory. From the sources (vitest) the
 * threads load tsx.
 *
 * Each upload's work is bounded: it waits for a thread at most `queueWaitMs` (503 past it; a small
 * upload has a thread of its own to take when large ones hold the others), works at
 * most `timeLimitMs`, and stops when its client goes away. Stopping aborts the piscina task, which
 * terminates its thread wherever it is (even in a loop that never yields), rolling back a transaction in
 * progress with the thread's store connection; the next upload gets a fresh thread.
 */
export function createDataTaskPool(options: DataTaskPoolOptions): DataTaskPool {
  // Made on the first task: a server that takes no upload (or draws no view) never builds the pool.
  let pool: Piscina<AuditedTask, TaskOutcome<TaskResult<IngestTask>>> | undefined;
  const started = () => (pool ??= new Piscina(threadOptions(options)));
  const slots = new PoolSlots({ shared: options.threads, express: options.expressThreads }, options.threads * WAITING_PER_THREAD, options.queueWaitMs, options.work);

  async function runBounded(task: AuditedTask, client?: AbortSignal): Promise<TaskOutcome<TaskResult<IngestTask>>> {
    const release = await slots.acquire({ small: await isSmall(task), signal: client });
    const stop = new AbortController();
    // The time limit counts the task's own work, from the thread's word that it has begun: a thread
    // started for the task (the domain's import, a store connection) first takes seconds on a busy
    // machine, and counted against a short limit it was stopped in its start, again and again.
    const begun = new MessageChannel();
    begun.port1.unref();
    let timer = setTimeout(() => stop.abort(TIME_LIMIT), THREAD_START_ALLOWANCE_MS + options.timeLimitMs);
    begun.port1.once('message', () => {
      clearTimeout(timer);
      timer = setTimeout(() => stop.abort(TIME_LIMIT), options.timeLimitMs);
    });
    const onClientGone = () => stop.abort(CLIENT_GONE);
    client?.addEventListener('abort', onClientGone, { once: true });
    if (client?.aborted) onClientGone();
    try {
      return await started().run({ ...task, begun: begun.port2 }, { signal: stop.signal, transferList: [begun.port2] });
    } catch (err) {
      if (stop.signal.aborted) throw stopped(task, stop.signal.reason, options.timeLimitMs);
      if ((err as { code?: unknown }).code === 'ERR_WORKER_OUT_OF_MEMORY') throw outOfMemory(task, options.maxHeapMb);
      throw err;
    } finally {
      clearTimeout(timer);
      begun.port1.close();
      client?.removeEventListener('abort', onClientGone);
      release();
    }
  }

  return {
    run: async <T extends IngestTask>(task: T, runOptions: RunOptions = {}) => {
      // The thread writes the request's audit entry with the dataset (src/model/audit/audit-scope.ts).
      const outcome = await runBounded({ ...task, audit: carriedAuditDraft() }, runOptions.signal);
      if (outcome.audited === true) activeAuditScope()?.markWritten();
      return unwrapOutcome(outcome) as TaskResult<T>;
    },
    close: async () => pool?.destroy(),
    get threads() {
      return pool?.threads.length ?? 0;
    },
  };
}

/**
 * The pool's threads: none until a task comes, each gone after `idleTimeoutMs` without one, and each
 * with its own heap limit, so one task's memory never becomes the server's.
 */
function threadOptions(options: DataTaskPoolOptions) {
  const entry = threadEntry(import.meta.url, 'ingest-worker');
  return {
    filename: entry.filename,
    minThreads: 0,
    maxThreads: options.threads + options.expressThreads,
    idleTimeout: options.idleTimeoutMs,
    concurrentTasksPerWorker: 1,
    atomics: 'async',
    resourceLimits: { maxOldGenerationSizeMb: options.maxHeapMb },
    workerData: { databaseUrl: options.databaseUrl, domain: options.domain, maxFieldBytes: options.maxFieldBytes } satisfies IngestWorkerConfig,
    execArgv: entry.execArgv,
  } as const;
}

/** Whether a task is a small upload; a view's cost is not known from its input, so it never is. */
async function isSmall(task: IngestTask): Promise<boolean> {
  if (task.kind === 'view') return false;
  const paths = task.kind === 'etl' ? task.files.map((f) => f.path) : [task.path];
  let bytes = 0;
  try {
    for (const path of paths) bytes += (await stat(path)).size;
  } catch {
    // A staged file gone already: the task itself reports it; it just takes no express thread.
    return false;
  }
  return bytes <= SMALL_UPLOAD_BYTES;
}

function stopped(task: IngestTask, reason: unknown, timeLimitMs: number): ScenaristError {
  if (task.kind === 'view') {
    return reason === TIME_LIMIT ? errors.viewTimeLimit(task.view, timeLimitMs) : errors.viewAbandoned(task.view);
  }
  return reason === TIME_LIMIT ? errors.uploadTimeLimit(timeLimitMs) : errors.clientClosedUpload();
}

function outOfMemory(task: IngestTask, maxHeapMb: number): ScenaristError {
  return task.kind === 'view' ? errors.viewOutOfMemory(task.view, maxHeapMb) : errors.uploadOutOfMemory(maxHeapMb);
}
