import { randomBytes } from 'node:crypto';
import { constants, deflateRawSync } from 'node:zlib';
import { workbookWithSheet } from './sheet-bomb.js';

const MiB = 1024 * 1024;
/** Random hex text per filler row, and about what it deflates to. */
const FILLER_ROW_BYTES = 8 * 1024;
const FILLER_ROW_DEFLATED = 4 * 1024;

export interface WhitespaceSheetOptions {
  /** MiB of spaces in the sheet's one run of text without a tag. */
  readonly mebibytes: number;
  /** Where the run is: between two rows, or inside a cell's value. */
  readonly inside?: 'between-rows' | 'cell';
  /** Size the zip directory declares for the sheet (a lie when smaller than the real one). */
  readonly declaredBytes?: number;
}

/**
 * A real one-sheet workbook whose sheet holds one long run of whitespace and a few rows around it, the
 * shape that made the scanner's work quadratic. The run is one deflated 1 MiB block of spaces repeated
 * (byte-aligned by a sync flush), so even gigabytes cost milliseconds and a few MB to build. Rows of
 * random text follow, enough to keep the declared size under 180 times the compressed one: inside the
 * zip guard's ratio check, as an attacker would build it.
 */
export function whitespaceWorkbook({ mebibytes, inside = 'between-rows', declaredBytes }: WhitespaceSheetOptions): Buffer {
  const open = inside === 'cell' ? '<row r="2"><c r="A2" t="inlineStr"><is><t>' : '';
  const close = inside === 'cell' ? '</t></is></c></row>' : '';
  const head = Buffer.from(`<worksheet><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>id</t></is></c></row>${open}`);
  const declared = declaredBytes ?? mebibytes * MiB;
  const fillerRows = Math.ceil(declared / 180 / FILLER_ROW_DEFLATED);
  const filler = Array.from({ length: fillerRows }, (_, i) => `<row r="${i + 3}"><c r="A${i + 3}" t="inlineStr"><is><t>${randomBytes(FILLER_ROW_BYTES / 2).toString('hex')}</t></is></c></row>`);
  const tail = Buffer.from(`${close}${filler.join('')}</sheetData></worksheet>`);
  const spaces = deflateRawSync(Buffer.alloc(MiB, 0x20), { level: 9, finishFlush: constants.Z_SYNC_FLUSH });
  const deflated = Buffer.concat([deflateRawSync(head, { finishFlush: constants.Z_SYNC_FLUSH }), ...Array<Buffer>(mebibytes).fill(spaces), deflateRawSync(tail)]);
  const uncompressedSize = head.length + mebibytes * MiB + tail.length;
  return workbookWithSheet({ deflated, uncompressedSize, declaredUncompressedSize: declaredBytes === undefined ? uncompressedSize : declaredBytes });
}
