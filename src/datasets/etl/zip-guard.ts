import { createInflateRaw } from 'node:zlib';
import { fileError } from './errors.js';
import type { EtlLimits } from './limits.js';
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
const MiB = 1024 * 1024;

/**
 * Checks an XLSX upload before any zip library sees it, so that memory and time stay bounded:
 * entry count and the sum of declared uncompressed sizes against the limits, a sane compression ratio,
 * and then (streaming, keeping nothing) that no entry inflates past its declared size, since a crafted
 * archive may lie in its directory and zip libraries only notice after inflating everything.
 * Throws an `EtlInputError` naming the file.
 */
export async function guardZip(file: string, data: Buffer, limits: EtlLimits): Promise<void> {
  try {
    const entries = checkDirectory(file, data, limits);
    for (const entry of entries) await checkInflatedSize(file, data, entry);
  } catch (err) {
    if (err instanceof ZipFormatError) throw fileError(file, `not a readable XLSX workbook: ${err.message}`);
    throw err;
  }
}

function checkDirectory(file: string, data: Buffer, limits: EtlLimits): ZipEntry[] {
  const directory = openCentralDirectory(data);
  if (directory.declaredEntries > limits.maxZipEntries) {
    throw fileError(file, `the workbook's zip archive has ${directory.declaredEntries} entries, more than the limit of ${limits.maxZipEntries}`);
  }
  const entries = directory.entries();
  let total = 0;
  for (const entry of entries) {
    if (entry.flags & 1) throw fileError(file, 'the workbook is encrypted or password-protected');
    if (entry.method !== STORED && entry.method !== DEFLATED) {
      throw new ZipFormatError(`zip entry '${entry.name}' uses unsupported compression method ${entry.method}`);
    }
    if (entry.method === STORED && entry.compressedSize !== entry.uncompressedSize) throw new ZipFormatError(`corrupt zip entry '${entry.name}'`);
    total += entry.uncompressedSize;
    if (total > limits.maxUncompressedBytes) {
      throw fileError(file, `the workbook expands to more than the limit of ${formatBytes(limits.maxUncompressedBytes)} uncompressed`);
    }
    if (entry.uncompressedSize > RATIO_CHECK_FROM_BYTES && entry.uncompressedSize > entry.compressedSize * MAX_COMPRESSION_RATIO) {
      throw fileError(file, `zip entry '${entry.name}' claims a compression ratio above ${MAX_COMPRESSION_RATIO}:1 (a zip bomb?)`);
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
    throw fileError(file, `zip entry '${entry.name}' inflates to more than the ${entry.uncompressedSize} bytes it declares (a zip bomb?)`);
  }
}

function formatBytes(bytes: number): string {
  return bytes % MiB === 0 ? `${bytes / MiB} MiB` : `${bytes} bytes`;
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
