import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { workerData } from 'node:worker_threads';
import pino, { type Logger } from 'pino';
import { domainBundleFile, domainHomeUrl, loadDomain } from '../../domain/load.js';
import type { DomainCode } from '../run/thrown-error.js';
import type { DomainRegistry } from '../../domain/registry.js';
import { parseLayersOff } from '../../config/speed-layers.js';
import { openStore } from '../../store/store.js';
import { DatasetCache } from '../run/dataset-cache.js';
import type { ExternalLimits } from '../run/external/external-limits.js';
import { InsightRecorder } from '../run/insight-recorder.js';
import type { RunOutcome } from '../run/job.js';
import { runLogger } from '../run/run-logger.js';
import { runScenario } from '../run/run-scenario.js';
import { RunControl } from './run-control.js';
import { enableTypescriptImports } from '../../domain/typescript-imports.js';
import { asWorkerConfig, type WorkerTask, type WorkerTaskResult } from './worker-task.js';

/**
 * The piscina worker: runs one scenario per task with the shared run core and answers its outcome,
 * which the main thread records (`RunHost`). Each thread loads the domain once, opens its own store
 * connection (datasets are read here, never copied through the main thread) and keeps parsed
 * datasets cached by version across tasks.
 */

interface ThreadResources {
  readonly domain: DomainRegistry;
  readonly datasets: DatasetCache;
  readonly log: Logger;
  readonly domainCode: DomainCode;
  readonly externalLimits: ExternalLimits;
}

let resources: Promise<ThreadResources> | undefined;

/** How long a thread keeps its idle store connection (see `openResources`). */
const THREAD_IDLE_CONNECTION_MS = 1_000;

async function openResources(): Promise<ThreadResources> {
  const config = asWorkerConfig(workerData);
  await enableTypescriptImports();
  const domain = await loadDomain(config.domain);
  // Migrations are the server's job: a worker only reads (datasets), one read at a time, on one
  // connection, closed once idle for a second: a thread reads only when a run's dataset is not in its
  // cache, and the threads of every process would otherwise add up against max_connections.
  const store = await openStore(config.databaseUrl, { migrate: false, maxConnections: 1, idleConnectionMs: THREAD_IDLE_CONNECTION_MS, speedLayersOff: parseLayersOff(config.speedLayersOff.join(',')) });
  const log = pino({ level: config.logLevel, base: { worker: 'local' } });
  return { domain, datasets: new DatasetCache(store.datasets), log, domainCode: domainCodeOf(config.domain), externalLimits: config.externalLimits };
}

/** Where the domain's own code is: its folder and, for the example, the bundle it is imported from. */
function domainCodeOf(specifier: string): DomainCode {
  return { domainDir: domainDirectory(specifier), domainBundle: domainBundleFile(specifier) };
}

/** The domain's own folder, when it is a file (its stack frames are the author's; its programs' relative paths start there). */
function domainDirectory(specifier: string): string | undefined {
  try {
    const url = domainHomeUrl(specifier);
    const file = url.startsWith('file:') ? url : import.meta.resolve(url);
    return file.startsWith('file:') ? dirname(fileURLToPath(file)) : undefined;
  } catch {
    return undefined;
  }
}

function threadResources(): Promise<ThreadResources> {
  // A failed start (domain or store) is retried by the next task rather than cached forever.
  resources ??= openResources().catch((err: unknown) => {
    resources = undefined;
    throw err;
  });
  return resources;
}

// Loaded as the thread starts, before its first task: a run then never waits for the domain's
// import or the store to open. A failure here is met again (and reported) by the first task.
threadResources().catch(() => undefined);

export default async function runTask(task: WorkerTask): Promise<WorkerTaskResult> {
  const insight = new InsightRecorder((batch) => task.insight.postMessage(batch));
  try {
    return await run(task, insight);
  } finally {
    // Before the outcome: the executor waits for this final batch before it records the run.
    insight.finish();
  }
}

async function run(task: WorkerTask, insight: InsightRecorder): Promise<RunOutcome> {
  const { domain, datasets, log, domainCode, externalLimits } = await threadResources();
  const control = new RunControl(task.control);
  const controller = new AbortController();
  const abort = () => controller.abort(new Error('the run was cancelled'));
  const stopWatching = control.watchAbort(abort);
  try {
    return await runScenario(task.job, {
      domain,
      datasets,
      signal: controller.signal,
      progress: (fraction) => {
        control.setProgress(fraction);
        if (control.abortRequested) abort();
      },
      log: runLogger(log, task.job, insight),
      report: (report) => insight.report(report),
      ...domainCode,
      externalLimits,
    });
  } finally {
    stopWatching();
  }
}
