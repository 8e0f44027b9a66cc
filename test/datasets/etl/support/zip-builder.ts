import { constants, crc32, deflateRawSync } from 'node:zlib';

/** One entry of a hand-made zip archive; sizes may be overridden to build archives that lie. */
export interface ZipEntrySource {
  readonly name: string;
  /** Uncompressed content; or give `deflated` and `uncompressedSize` directly for huge entries. */
  readonly content?: Buffer;
  readonly deflated?: Buffer;
  readonly uncompressedSize?: number;
  readonly crc?: number;
  /** Size written into the headers instead of the real one. */
  readonly declaredUncompressedSize?: number;
}

/**
 * Builds a real zip archive (local headers, deflated data, central directory, end record), so tests can
 * make zip bombs and lying archives that no zip library would write.
 */
export function buildZip(entries: readonly ZipEntrySource[], options: { declaredEntryCount?: number } = {}): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const data = entry.deflated ?? deflateRawSync(entry.content ?? Buffer.alloc(0));
    const size = entry.declaredUncompressedSize ?? entry.uncompressedSize ?? entry.content?.length ?? 0;
    const crc = entry.crc ?? (entry.content ? crc32(entry.content) : 0);
    const name = Buffer.from(entry.name, 'utf8');
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x800, 6);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(crc >>> 0, 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(size, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x800, 8);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(crc >>> 0, 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, data);
    centrals.push(central, name);
    offset += local.length + name.length + data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  const count = options.declaredEntryCount ?? entries.length;
  end.writeUInt16LE(count, 8);
  end.writeUInt16LE(count, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/**
 * Raw deflate data for `mebibytes` MiB of zeros, made by repeating one independently compressed,
 * byte-aligned 1 MiB block sequence and closing with an empty final block: a gigabyte costs ~1 MB and
 * milliseconds to build, as in a real zip bomb.
 */
export function deflatedZeros(mebibytes: number): { deflated: Buffer; uncompressedSize: number; crc: number } {
  const chunk = Buffer.alloc(1024 * 1024);
  // Z_SYNC_FLUSH ends the data on a byte boundary without a final block, so copies can follow each other.
  const block = deflateRawSync(chunk, { finishFlush: constants.Z_SYNC_FLUSH });
  let crc = 0;
  for (let i = 0; i < mebibytes; i++) crc = crc32(chunk, crc);
  const finalEmptyBlock = Buffer.from([0x03, 0x00]);
  return { deflated: Buffer.concat([...Array<Buffer>(mebibytes).fill(block), finalEmptyBlock]), uncompressedSize: mebibytes * 1024 * 1024, crc };
}
