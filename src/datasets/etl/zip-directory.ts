/**
 * A minimal reader of a zip file's central directory: enough to learn, without inflating anything, how
 * many entries an archive has, what each one declares as its sizes, and where its data lies.
 * Only what XLSX files use is supported (one disk, no ZIP64); the rest is reported as unsupported.
 */

export interface ZipEntry {
  readonly name: string;
  /** General-purpose flags; bit 0 means encrypted. */
  readonly flags: number;
  /** 0 = stored, 8 = deflated. */
  readonly method: number;
  readonly compressedSize: number;
  readonly uncompressedSize: number;
  readonly localHeaderOffset: number;
}

/** Why the bytes are not a zip archive this reader accepts. */
export class ZipFormatError extends Error {}

const EOCD_SIGNATURE = 0x06054b50;
const EOCD_SIZE = 22;
const CENTRAL_SIGNATURE = 0x02014b50;
const CENTRAL_SIZE = 46;
const LOCAL_SIGNATURE = 0x04034b50;
const LOCAL_SIZE = 30;
const MAX_COMMENT = 0xffff;
const ZIP64_MARK_32 = 0xffffffff;
const ZIP64_MARK_16 = 0xffff;

export interface CentralDirectory {
  /** Entry count as declared by the end-of-central-directory record (checked before entries are read). */
  readonly declaredEntries: number;
  /** Reads the entries; call only once the declared count is acceptable. */
  entries(): ZipEntry[];
}

/** Finds and checks the end-of-central-directory record. Throws `ZipFormatError` for anything else. */
export function openCentralDirectory(data: Buffer): CentralDirectory {
  if (data.length < EOCD_SIZE || data.readUInt32LE(0) !== LOCAL_SIGNATURE) throw new ZipFormatError('not a zip archive');
  const eocd = findEndRecord(data);
  if (data.readUInt16LE(eocd + 4) !== 0 || data.readUInt16LE(eocd + 6) !== 0) throw new ZipFormatError('multi-disk zip archives are not supported');
  const declaredEntries = data.readUInt16LE(eocd + 10);
  const size = data.readUInt32LE(eocd + 12);
  const offset = data.readUInt32LE(eocd + 16);
  if (declaredEntries === ZIP64_MARK_16 || size === ZIP64_MARK_32 || offset === ZIP64_MARK_32) {
    throw new ZipFormatError('ZIP64 archives are not supported');
  }
  if (offset + size > eocd) throw new ZipFormatError('the zip central directory lies outside the file');
  return { declaredEntries, entries: () => readEntries(data, offset, offset + size, declaredEntries) };
}

/** The signature is searched backwards, as zip readers do, past at most one comment. */
function findEndRecord(data: Buffer): number {
  const lowest = Math.max(0, data.length - EOCD_SIZE - MAX_COMMENT);
  for (let at = data.length - EOCD_SIZE; at >= lowest; at--) {
    if (data.readUInt32LE(at) === EOCD_SIGNATURE) return at;
  }
  throw new ZipFormatError('not a zip archive (no end of central directory)');
}

function readEntries(data: Buffer, start: number, end: number, count: number): ZipEntry[] {
  const entries: ZipEntry[] = [];
  let at = start;
  for (let i = 0; i < count; i++) {
    if (at + CENTRAL_SIZE > end || data.readUInt32LE(at) !== CENTRAL_SIGNATURE) throw new ZipFormatError('corrupt zip central directory');
    const flags = data.readUInt16LE(at + 8);
    const nameLength = data.readUInt16LE(at + 28);
    const variableLength = nameLength + data.readUInt16LE(at + 30) + data.readUInt16LE(at + 32);
    if (at + CENTRAL_SIZE + variableLength > end) throw new ZipFormatError('corrupt zip central directory');
    // Bit 11 marks UTF-8 names; older tools write code page 437, for which latin1 is close enough in a message.
    const name = data.toString(flags & 0x800 ? 'utf8' : 'latin1', at + CENTRAL_SIZE, at + CENTRAL_SIZE + nameLength);
    const entry = {
      name,
      flags,
      method: data.readUInt16LE(at + 10),
      compressedSize: data.readUInt32LE(at + 20),
      uncompressedSize: data.readUInt32LE(at + 24),
      localHeaderOffset: data.readUInt32LE(at + 42),
    };
    if (entry.compressedSize === ZIP64_MARK_32 || entry.uncompressedSize === ZIP64_MARK_32 || entry.localHeaderOffset === ZIP64_MARK_32) {
      throw new ZipFormatError('ZIP64 archives are not supported');
    }
    entries.push(entry);
    at += CENTRAL_SIZE + variableLength;
  }
  return entries;
}

/** The compressed bytes of an entry, located through its local header as zip readers do. */
export function entryData(data: Buffer, entry: ZipEntry): Buffer {
  const at = entry.localHeaderOffset;
  if (at + LOCAL_SIZE > data.length || data.readUInt32LE(at) !== LOCAL_SIGNATURE) {
    throw new ZipFormatError(`corrupt zip entry '${entry.name}'`);
  }
  const start = at + LOCAL_SIZE + data.readUInt16LE(at + 26) + data.readUInt16LE(at + 28);
  const end = start + entry.compressedSize;
  if (end > data.length) throw new ZipFormatError(`zip entry '${entry.name}' is truncated`);
  return data.subarray(start, end);
}
