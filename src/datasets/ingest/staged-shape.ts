import { createReadStream } from 'node:fs';
import { csvRecordGuard } from '../etl/readers/csv-reader.js';
import { jsonShapeGuard } from '../etl/readers/json-reader.js';
import type { ShapeGuard } from '../etl/readers/shape-guard.js';
import type { StagedFile } from './tasks.js';

/** Pieces a staged file is checked in: what is held at once, whatever the file's size. */
const PIECE_BYTES = 1024 * 1024;

/**
 * Checks the structure of staged CSV and JSON files as they stream from disk, before any is read into
 * memory: a record, line or string over `maxFieldBytes` (a 1 GB line, a quote never closed, a 500 MB
 * string) fails with a located 400 having cost one piece of memory and a linear read of what came before.
 * XLSX files are checked while they inflate (see `XmlScanner`).
 */
export async function checkStagedShapes(files: readonly StagedFile[], maxFieldBytes: number): Promise<void> {
  for (const { filename, path } of files) {
    const guard = guardFor(filename, maxFieldBytes);
    if (guard) await streamThrough(path, guard);
  }
}

/** Feeds a staged file to a guard piece by piece. */
export async function streamThrough(path: string, guard: ShapeGuard): Promise<void> {
  for await (const piece of createReadStream(path, { highWaterMark: PIECE_BYTES })) guard.feed(piece as Buffer);
}

function guardFor(filename: string, maxFieldBytes: number): ShapeGuard | undefined {
  const extension = filename.slice(filename.lastIndexOf('.') + 1).toLowerCase();
  if (extension === 'csv') return csvRecordGuard(filename, maxFieldBytes);
  if (extension === 'json') return jsonShapeGuard(filename, maxFieldBytes);
  return undefined;
}
