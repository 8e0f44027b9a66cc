import { ScenaristError } from '../../errors.js';
import { runIngestTask, type IngestEnvironment } from './run-task.js';
import type { IngestTask, TaskOutcome, TaskResult } from './tasks.js';

export interface RunOptions {
  /** Aborted when the client went away: its upload's work stops (the pool frees the thread). */
  readonly signal?: AbortSignal;
}

/** Where ingest tasks run: a pool of worker threads (the server) or the calling thread. */
export interface IngestRunner {
  /** Runs the task; a client error is thrown as the `ScenaristError` it was. */
  run<T extends IngestTask>(task: T, options?: RunOptions): Promise<TaskResult<T>>;
  close(): Promise<void>;
}

/** Throws the client error an outcome carries, or returns its result. */
export function unwrapOutcome<R>(outcome: TaskOutcome<R>): R {
  if (outcome.ok) return outcome.result;
  throw new ScenaristError(outcome.error.code, outcome.error.message, outcome.error.fields);
}

/**
 * Runs tasks on the calling thread: for tools and tests that have no pool. It has no time limit and
 * cannot stop a task once started (only a pool thread can be terminated).
 */
export function inProcessRunner(env: IngestEnvironment): IngestRunner {
  return {
    run: async (task) => unwrapOutcome(await runIngestTask(env, task)),
    close: async () => {},
  };
}
