import { createInflateRaw } from 'node:zlib';
import { etlErrors } from './error-factories.js';
import type { EtlLimits } from './limits.js';
import type { InflateBudget } from './readers/inflate-budget.js';
import { entryData, openCentralDirectory, ZipFormatError, type ZipEntry } from './zip-directory.js';

/**
 * Deflate cannot exceed about 1032:1; real XLSX parts compress 5-50:1 (a sheet of one repeated value
 * reaches ~100:1). Anything past this ratio is a crafted archive, not a workbook.
 */
export const MAX_COMPRESSION_RATIO = 200;
/** Small entries may compress absurdly well (a few bytes of boilerplate); only big ones are ratio-checked. */
const RATIO_CHECK_FROM_BYTES = 1024 * 1024;
const STORED = 0;
const DEFLATED = 8;

/**
 * Checks an XLSX upload's zip directory before anything is inflated, so that memory and time stay
 * bounded: entry count and the sum of declared uncompressed sizes against the limits (per file, and
 * charged to the upload's inflate budget), no encryption, supported methods, a sane compression ratio.
 * Returns the entries. Entries the reader streams are checked against their declared sizes as they are
 * inflated; `checkUnreadEntries` checks the rest. Throws an `EtlInputError` naming the file, or a
 * `ZipFormatError` for an archive that is not a readable zip.
 */
export function checkArchive(file: string, data: Buffer, limits: EtlLimits, budget: InflateBudget): ZipEntry[] {
  const entries = checkDirectory(file, data, limits);
  budget.declare(file, entries.reduce((sum, entry) => sum + entry.uncompressedSize, 0));
  return entries;
}

/**
 * A crafted archive may lie in its directory, and zip libraries only notice after inflating everything:
 * each entry is inflated (streaming, keeping nothing) just far enough to know it keeps its word.
 */
export async function checkUnreadEntries(file: string, data: Buffer, entries: readonly ZipEntry[]): Promise<void> {
  for (const entry of entries) await checkInflatedSize(file, data, entry);
}

function checkDirectory(file: string, data: Buffer, limits: EtlLimits): ZipEntry[] {
  const directory = openCentralDirectory(data);
  if (directory.declaredEntries > limits.maxZipEntries) {
    throw etlErrors.zipEntriesOverLimit(file, directory.declaredEntries, limits.maxZipEntries);
  }
  const entries = directory.entries();
  let total = 0;
  for (const entry of entries) {
    if (entry.flags & 1) throw etlErrors.workbookEncrypted(file);
    if (entry.method !== STORED && entry.method !== DEFLATED) {
      throw new ZipFormatError(`zip entry '${entry.name}' uses unsupported compression method ${entry.method}`);
    }
    if (entry.method === STORED && entry.compressedSize !== entry.uncompressedSize) throw new ZipFormatError(`corrupt zip entry '${entry.name}'`);
    total += entry.uncompressedSize;
    if (total > limits.maxUncompressedBytes) {
      throw etlErrors.workbookExpandsOverLimit(file, limits.maxUncompressedBytes);
    }
    if (entry.uncompressedSize > RATIO_CHECK_FROM_BYTES && entry.uncompressedSize > entry.compressedSize * MAX_COMPRESSION_RATIO) {
      throw etlErrors.zipRatioOverLimit(file, entry.name, MAX_COMPRESSION_RATIO);
    }
  }
  return entries;
}

async function checkInflatedSize(file: string, data: Buffer, entry: ZipEntry): Promise<void> {
  const compressed = entryData(data, entry);
  if (entry.method === STORED) return;
  let inflated: number;
  try {
    inflated = await inflatedSizeUpTo(compressed, entry.uncompressedSize);
  } catch {
    throw new ZipFormatError(`zip entry '${entry.name}' is corrupt`);
  }
  if (inflated > entry.uncompressedSize) {
    throw etlErrors.zipEntryInflatesPastSize(file, entry.name, entry.uncompressedSize);
  }
}

/** Inflates chunk by chunk, discarding output, and stops as soon as more than `cap` bytes came out. */
async function inflatedSizeUpTo(compressed: Buffer, cap: number): Promise<number> {
  const inflater = createInflateRaw({ chunkSize: 64 * 1024 });
  inflater.end(compressed);
  let total = 0;
  for await (const chunk of inflater as AsyncIterable<Buffer>) {
    total += chunk.length;
    if (total > cap) break; // leaving the loop destroys the stream
  }
  return total;
}
