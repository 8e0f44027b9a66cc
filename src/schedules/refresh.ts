import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { DatasetService } from '../datasets/service.js';
import type { Schemas } from '../domain/dataset-schema.js';
import type { Table } from '../domain/dataset-model.js';
import { ScenaristError } from '../errors.js';
import type { StagedFile } from '../datasets/ingest/tasks.js';
import { completeFiles, groupStem, processingFolder, settle, take, type DroppedFile } from './drop-folder.js';

/** What a tick's refresh took and what the ETL answered (stored on the tick, shown in its history). */
export interface RefreshRecord {
  readonly dataset: string;
  readonly files: readonly DroppedFile[];
  /** The dataset's version token before the ETL: a take-over compares it to tell whether the ETL stored. */
  readonly token_before: string | null;
  readonly success?: boolean;
  readonly messages?: readonly { readonly severity: string; readonly message: string }[];
  /** Schema groups not dropped, carried over from the dataset's current version. */
  readonly carried?: readonly string[];
}

/**
 * The complete dropped files of this refresh: in name order, the first file of each schema group (a
 * second file of a group waits for the next tick, so every drop is taken, one refresh at a time).
 */
export async function candidates(folders: readonly string[]): Promise<DroppedFile[]> {
  const taken = new Set<string>();
  const files: DroppedFile[] = [];
  for (const file of await completeFiles(folders)) {
    const stem = groupStem(file.name);
    if (taken.has(stem)) continue;
    taken.add(stem);
    files.push(file);
  }
  return files;
}

/** Moves the files into the tick's processing folders; their record is written before the ETL runs. */
export async function takeAll(files: readonly DroppedFile[], tickId: string): Promise<void> {
  for (const file of files) await take(file, tickId);
}

export interface EtlAnswer {
  readonly success: boolean;
  readonly messages: readonly { readonly severity: string; readonly message: string }[];
  readonly carried: readonly string[];
}

/**
 * Runs the taken files through the ETL as a new version of the dataset, exactly as an upload of them.
 * Schema groups no file names are carried over from the dataset's current version (written as JSON
 * files beside), so a nightly orders file alone refreshes a dataset of orders and locations.
 */
export async function runEtl(datasets: DatasetService, schemas: Schemas, sessionId: string, key: string, files: readonly DroppedFile[], tickId: string): Promise<EtlAnswer> {
  const staged: StagedFile[] = files.map((f) => ({ filename: f.name, path: join(processingFolder(f.folder, tickId), f.name) }));
  const dropped = new Set(files.map((f) => groupStem(f.name)));
  const carried = await carryOver(datasets, schemas, sessionId, key, dropped, join(processingFolder(files[0]!.folder, tickId), '.carried'));
  try {
    const result = await datasets.etlStaged(sessionId, key, [...staged, ...carried.files]);
    return { success: result.success, messages: result.messages.map((m) => ({ severity: m.severity, message: m.message })), carried: carried.groups };
  } catch (err) {
    // A file the ETL refuses outright (unreadable, a wrong layout) is the ETL's answer too.
    if (err instanceof ScenaristError) return { success: false, messages: [{ severity: 'error', message: err.message }], carried: carried.groups };
    throw err;
  }
}

/** Moves every taken file to `done/` or `failed/` with the ETL's answer beside it. */
export async function settleAll(files: readonly DroppedFile[], tickId: string, answer: EtlAnswer): Promise<void> {
  for (const file of files) await settle(file, tickId, answer.success ? 'done' : 'failed', { file: file.name, ...answer });
}

async function carryOver(datasets: DatasetService, schemas: Schemas, sessionId: string, key: string, dropped: ReadonlySet<string>, folder: string) {
  const missing = Object.keys(schemas).filter((group) => !dropped.has(group.toLowerCase()));
  if (missing.length === 0) return { groups: [], files: [] };
  const current = await datasets.load(sessionId, key).catch((err: unknown) => {
    if (err instanceof ScenaristError && err.code === 'DATASET_NOT_FOUND') return undefined;
    throw err;
  });
  if (current === undefined) return { groups: [], files: [] };
  await mkdir(folder, { recursive: true });
  const files: StagedFile[] = [];
  for (const group of missing) {
    const tables = Object.keys(schemas[group]!.tables);
    const records = Object.fromEntries(tables.filter((t) => current.tables[t] !== undefined).map((t) => [t, recordsOf(current.tables[t]!)]));
    const path = join(folder, `${group}.json`);
    await writeFile(path, JSON.stringify(records));
    files.push({ filename: `${group}.json`, path });
  }
  return { groups: missing, files };
}

function recordsOf(table: Table): Record<string, unknown>[] {
  return table.rows.map((row) => Object.fromEntries(table.columns.map((c, i) => [c.name, row[i]])));
}
