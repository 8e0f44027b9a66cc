import { randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import type { DomainRegistry } from '../../domain/registry.js';
import { ScenaristError } from '../../errors.js';
import { JsonShapeGuard } from '../etl/readers/json-shape-guard.js';
import { DEFAULT_MAX_FIELD_BYTES } from '../etl/limits.js';
import type { Store } from '../../store/store.js';
import { runViewTask } from '../../views/view-task.js';
import { runEtl, type EtlOutcome, type UploadedFile } from '../etl/index.js';
import { readJsonForm } from './json-form.js';
import { checkStagedShapes, streamThrough } from './staged-shape.js';
import { putDataset } from './put-dataset.js';
import { storedTablesConsuming, type ConsumableTable } from './tables-json.js';
import type { EtlTask, EtlTaskResult, FromJsonTask, FromJsonTaskResult, IngestTask, TaskOutcome, TaskResult } from './tasks.js';
import { errors } from '../../error-factories.js';
import { noteAuditTarget } from '../../model/audit/audit-scope.js';

/** What a task needs: the domain (schemas, data source) and a store to write the dataset to. */
export interface IngestEnvironment {
  readonly domain: DomainRegistry;
  readonly store: Store;
  /** The `upload_max_field` setting (default `DEFAULT_MAX_FIELD_BYTES`). */
  readonly maxFieldBytes?: number;
}

/**
 * Runs one task where it is called (a worker thread, or in process): reads the staged files, parses and
 * validates them, and stores the dataset, so that its tables never cross to the HTTP thread. Client
 * errors come back as data; anything else is a bug and is thrown.
 */
export async function runIngestTask<T extends IngestTask>(env: IngestEnvironment, task: T): Promise<TaskOutcome<TaskResult<T>>> {
  try {
    const result = task.kind === 'etl' ? await runEtlTask(env, task) : task.kind === 'view' ? await runViewTask(env, task) : await runFromJsonTask(env, task);
    return { ok: true, result: result as TaskResult<T> };
  } catch (err) {
    if (err instanceof ScenaristError) return { ok: false, error: { code: err.code, message: err.message, fields: err.fields } };
    throw err;
  }
}

/** Stores the dataset only when the ETL produced no error-level message. */
export async function storeEtl(env: IngestEnvironment, sessionId: string, datasetName: string, files: readonly UploadedFile[]): Promise<EtlTaskResult> {
  return storeEtlOutcome(env, sessionId, datasetName, await runEtl(env.domain.domain.schemas, files, { maxFieldBytes: maxFieldOf(env) }));
}

async function storeEtlOutcome(env: IngestEnvironment, sessionId: string, datasetName: string, outcome: EtlOutcome): Promise<EtlTaskResult> {
  if (!outcome.success) return { success: false, messages: outcome.messages, rows: 0 };
  // Counted before the tables' rows are consumed below.
  const rows = Object.values(outcome.tables).reduce((sum, table) => sum + table.rows.length, 0);
  // The ETL built these tables for this task alone and nothing reads them after this: their rows may go
  // as their JSON is written.
  const tables = storedTablesConsuming(outcome.tables as Readonly<Record<string, ConsumableTable>>);
  await putDataset(env.store, { sessionId, key: datasetName, kind: 'master', createdAt: new Date().toISOString(), version: randomUUID(), tables });
  return { success: true, messages: outcome.messages, rows };
}

async function runEtlTask(env: IngestEnvironment, task: EtlTask): Promise<EtlTaskResult> {
  // Streamed from disk first: a file whose structure is over the limit is never read into memory.
  await checkStagedShapes(task.files, maxFieldOf(env));
  // The files' bytes are never bound here: once parsed they can be collected before the tables'
  // JSON is built, which keeps them out of a large upload's peak memory.
  const outcome = await runEtl(env.domain.domain.schemas, await readStagedFiles(task), { maxFieldBytes: maxFieldOf(env) });
  return storeEtlOutcome(env, task.sessionId, task.datasetName, outcome);
}

function readStagedFiles(task: EtlTask): Promise<UploadedFile[]> {
  return Promise.all(task.files.map(async ({ filename, path }) => ({ filename, data: await readFile(path) })));
}

/** Stores the dataset of a JSON form under the key it carries, replacing one of that key. */
export async function storeJsonForm(env: IngestEnvironment, sessionId: string, text: string): Promise<FromJsonTaskResult> {
  const { key, kind, createdAt, tables } = readJsonForm(env.domain, text);
  noteAuditTarget('dataset', key);
  await putDataset(env.store, { sessionId, key, kind, createdAt, version: randomUUID(), tables });
  return { key };
}

async function runFromJsonTask(env: IngestEnvironment, task: FromJsonTask): Promise<FromJsonTaskResult> {
  // A string over the limit fails as the body streams from disk, before the body is read into memory.
  // Nesting is checked by the form's own scan (`splitJsonForm`): BODY_TOO_DEEP, as for every JSON body.
  const maxStringBytes = maxFieldOf(env);
  await streamThrough(task.path, new JsonShapeGuard({ maxStringBytes, maxDepth: Infinity }, errors.bodyStructureLimit
));
  return storeJsonForm(env, task.sessionId, await readFile(task.path, 'utf8'));
}

const maxFieldOf = (env: IngestEnvironment) => env.maxFieldBytes ?? DEFAULT_MAX_FIELD_BYTES;
