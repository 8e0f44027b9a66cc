import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { DomainRegistry } from '../../domain/registry.js';
import { ScenaristError } from '../../errors.js';
import type { Store } from '../../store/store.js';
import { runEtl, type UploadedFile } from '../etl/index.js';
import { decodeJsonForm } from './json-form.js';
import { putDataset } from './put-dataset.js';
import type { EtlTask, EtlTaskResult, FromJsonTask, FromJsonTaskResult, IngestTask, TaskOutcome, TaskResult } from './tasks.js';

/** What a task needs: the domain (schemas, data source) and a store to write the dataset to. */
export interface IngestEnvironment {
  readonly domain: DomainRegistry;
  readonly store: Store;
}

/**
 * Runs one task where it is called (a worker thread, or in process): reads the staged files, parses and
 * validates them, and stores the dataset, so that its tables never cross to the HTTP thread. Client
 * errors come back as data; anything else is a bug and is thrown.
 */
export async function runIngestTask<T extends IngestTask>(env: IngestEnvironment, task: T): Promise<TaskOutcome<TaskResult<T>>> {
  try {
    const result = task.kind === 'etl' ? await runEtlTask(env, task) : await runFromJsonTask(env, task);
    return { ok: true, result: result as TaskResult<T> };
  } catch (err) {
    if (err instanceof ScenaristError) return { ok: false, error: { code: err.code, message: err.message, fields: err.fields } };
    throw err;
  }
}

/** Stores the dataset only when the ETL produced no error-level message. */
export async function storeEtl(env: IngestEnvironment, sessionId: string, datasetName: string, files: readonly UploadedFile[]): Promise<EtlTaskResult> {
  const outcome = await runEtl(env.domain.domain.schemas, files);
  if (!outcome.success) return { success: false, messages: outcome.messages };
  await putDataset(env.store, {
    sessionId, key: datasetName, kind: 'master', createdAt: new Date().toISOString(), version: randomUUID(), tablesJson: JSON.stringify(outcome.tables),
  });
  return { success: true, messages: outcome.messages };
}

async function runEtlTask(env: IngestEnvironment, task: EtlTask): Promise<EtlTaskResult> {
  const files = await Promise.all(task.files.map(async ({ filename, path }) => ({ filename, data: await readFile(path) })));
  return storeEtl(env, task.sessionId, task.datasetName, files);
}

/** Stores the dataset of a JSON form under the key it carries, replacing one of that key. */
export async function storeJsonForm(env: IngestEnvironment, sessionId: string, text: string): Promise<FromJsonTaskResult> {
  const dataset = decodeJsonForm(env.domain, text);
  await putDataset(env.store, {
    sessionId, key: dataset.key, kind: dataset.kind, createdAt: dataset.createdAt, version: randomUUID(), tablesJson: JSON.stringify(dataset.tables),
  });
  return { key: dataset.key };
}

async function runFromJsonTask(env: IngestEnvironment, task: FromJsonTask): Promise<FromJsonTaskResult> {
  return storeJsonForm(env, task.sessionId, await readFile(task.path, 'utf8'));
}
