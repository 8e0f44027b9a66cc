import { workerData } from 'node:worker_threads';
import { loadDomain } from '../../domain/load.js';
import { enableTypescriptImports } from '../../domain/typescript-imports.js';
import { openStore } from '../../store/store.js';
import { runIngestTask, type IngestEnvironment } from './run-task.js';
import type { AuditedTask, IngestTask, TaskOutcome, TaskResult } from './tasks.js';
import { runCarriedAudit } from '../../model/audit/audit-scope.js';
import { asIngestWorkerConfig } from './worker-config.js';

/**
 * A data task pool's thread: one task at a time, an upload parsed, validated and stored or a view drawn,
 * so none of that runs on the HTTP thread. Each thread loads the domain and opens a store connection once.
 */
let environment: Promise<IngestEnvironment> | undefined;

async function openEnvironment(): Promise<IngestEnvironment> {
  const config = asIngestWorkerConfig(workerData);
  await enableTypescriptImports();
  const domain = await loadDomain(config.domain);
  // Migrations are the server's job.
  const store = await openStore(config.databaseUrl, { migrate: false, maxConnections: 1 });
  return { domain, store, maxFieldBytes: config.maxFieldBytes };
}

export default async function runTask(task: AuditedTask): Promise<TaskOutcome<TaskResult<IngestTask>>> {
  // A failed start is retried by the next task rather than cached forever.
  environment ??= openEnvironment().catch((err: unknown) => {
    environment = undefined;
    throw err;
  });
  const env = await environment;
  // The task's time limit counts from here: the thread's start (domain, store) is not the task's work.
  task.begun?.postMessage(null);
  task.begun?.close();
  // The request's audit entry commits with the dataset this thread stores (src/store/audit/).
  const { value, audited } = await runCarriedAudit(task.audit, () => runIngestTask(env, task));
  return audited ? { ...value, audited } : value;
}
