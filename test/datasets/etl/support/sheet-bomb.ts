import { constants, deflateRawSync, inflateRawSync } from 'node:zlib';
import { entryData, openCentralDirectory } from '../../../../src/datasets/etl/zip-directory.js';
import { buildXlsx } from './xlsx-builder.js';
import { buildZip, type ZipEntrySource } from './zip-builder.js';

const MiB = 1024 * 1024;

/**
 * Raw deflate data for a worksheet of `mebibytes` MiB of ordinary-looking rows that compresses about
 * 150-200:1, under the zip guard's ratio check, the way a crafted "sheet bomb" does: one 1 MiB block of
 * rows compressed on its own and repeated (byte-aligned by a sync flush), so a 450 MiB sheet costs
 * milliseconds and a few MB to build. The declared size is honest.
 */
export function sheetBomb(mebibytes: number): { deflated: Buffer; uncompressedSize: number } {
  let seed = 1;
  const random = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) >> 8;
  let rows = '';
  for (let i = 1; rows.length < MiB; i++) rows += `<row r="2"><c r="A2"><v>${i % 3 === 0 ? random() % 3 : 1}</v></c><c r="B2"><v>2</v></c></row>`;
  const block = deflateRawSync(Buffer.from(rows.slice(0, MiB)), { level: 9, finishFlush: constants.Z_SYNC_FLUSH });
  const head = Buffer.from('<worksheet><sheetData><row r="1"><c r="A1"><v>1</v></c></row>');
  const tail = Buffer.from('</sheetData></worksheet>');
  const deflated = Buffer.concat([
    deflateRawSync(head, { finishFlush: constants.Z_SYNC_FLUSH }),
    ...Array<Buffer>(mebibytes).fill(block),
    deflateRawSync(tail),
  ]);
  return { deflated, uncompressedSize: head.length + mebibytes * MiB + tail.length };
}

/** A real one-sheet workbook whose sheet is replaced by `sheet`. */
export function workbookWithSheet(sheet: Omit<ZipEntrySource, 'name'>): Buffer {
  const original = buildXlsx({ items: [['id', 'qty', 'price']] });
  return buildZip(openCentralDirectory(original).entries().map((entry) => {
    if (entry.name === 'xl/worksheets/sheet1.xml') return { name: entry.name, ...sheet };
    const raw = entryData(original, entry);
    return { name: entry.name, content: entry.method === 8 ? inflateRawSync(raw) : raw };
  }));
}
