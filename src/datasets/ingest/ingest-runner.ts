import { ScenaristError } from '../../errors.js';
import { runIngestTask, type IngestEnvironment } from './run-task.js';
import type { IngestTask, TaskOutcome, TaskResult } from './tasks.js';

/** Where ingest tasks run: a pool of worker threads (the server) or the calling thread. */
export interface IngestRunner {
  /** Runs the task; a client error is thrown as the `ScenaristError` it was. */
  run<T extends IngestTask>(task: T): Promise<TaskResult<T>>;
  close(): Promise<void>;
}

/** Throws the client error an outcome carries, or returns its result. */
export function unwrapOutcome<R>(outcome: TaskOutcome<R>): R {
  if (outcome.ok) return outcome.result;
  throw new ScenaristError(outcome.error.code, outcome.error.message, outcome.error.fields);
}

/** Runs tasks on the calling thread: for tools and tests that have no pool. */
export function inProcessRunner(env: IngestEnvironment): IngestRunner {
  return {
    run: async (task) => unwrapOutcome(await runIngestTask(env, task)),
    close: async () => {},
  };
}
