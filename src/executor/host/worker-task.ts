import type { MessagePort } from 'node:worker_threads';
import type { ExternalLimits } from '../run/external/external-limits.js';
import type { RunJob, RunOutcome } from '../run/job.js';

/** What every worker thread of the pool gets at start-up (piscina `workerData`). */
export interface WorkerConfig {
  /** The worker opens its own store connection to load datasets. */
  readonly databaseUrl: string;
  /** The domain module specifier, loaded once per thread. */
  readonly domain: string;
  readonly logLevel: string;
  /** The bounds of external algorithms' programs run by this thread. */
  readonly externalLimits: ExternalLimits;
  /** The speed layers switched off (names; a set does not cross to a thread as one). */
  readonly speedLayersOff: readonly string[];
}

/**
 * One task posted to the pool: the job, its shared control block (see `run-control.ts`) and the port
 * its reports and log lines go back through (`InsightBatch`es; transferred with the task). The thread
 * answers the run's outcome, for the main thread to record.
 */
export interface WorkerTask {
  readonly job: RunJob;
  readonly control: SharedArrayBuffer;
  readonly insight: MessagePort;
}

/** What a task answers: the run's outcome. */
export type WorkerTaskResult = RunOutcome;

/** Narrows the untyped `workerData` a thread receives; a mismatch is a bug in the executor. */
export function asWorkerConfig(data: unknown): WorkerConfig {
  if (typeof data !== 'object' || data === null) throw new TypeError('worker: workerData must be a WorkerConfig object');
  const { databaseUrl, domain, logLevel, externalLimits, speedLayersOff } = data as Record<string, unknown>;
  if (typeof databaseUrl !== 'string' || typeof domain !== 'string' || typeof logLevel !== 'string') {
    throw new TypeError('worker: workerData needs string databaseUrl, domain and logLevel');
  }
  if (typeof externalLimits !== 'object' || externalLimits === null) throw new TypeError('worker: workerData needs externalLimits');
  if (!Array.isArray(speedLayersOff)) throw new TypeError('worker: workerData needs a speedLayersOff list');
  return { databaseUrl, domain, logLevel, externalLimits: externalLimits as ExternalLimits, speedLayersOff: speedLayersOff.map(String) };
}
