import { describe, expect, it } from 'vitest';
import { PieceQueue } from '../../../src/datasets/etl/readers/xlsx/entry-text.js';
import { CellStyles } from '../../../src/datasets/etl/readers/xlsx/cell-styles.js';
import { NEED_TEXT, ROW_READY, SheetRows } from '../../../src/datasets/etl/readers/xlsx/sheet-rows.js';
import { XmlScanner } from '../../../src/datasets/etl/readers/xlsx/xml-scanner.js';
import type { Schemas } from '../../../src/domain/dataset-schema.js';
import { expectInputError, expectSuccess, SCHEMAS, upload } from './support/fixtures.js';
import { whitespaceWorkbook } from './support/whitespace-bomb.js';

const MiB = 1024 * 1024;
const ONE_COLUMN: Schemas = { t: { tables: { t: { columns: { id: { type: 'string', nullable: true } } } } } };

/** Pieces of 64 KiB, as the inflater gives them. */
async function* piecesOf(text: string): AsyncGenerator<string> {
  for (let at = 0; at < text.length; at += 64 * 1024) yield text.slice(at, at + 64 * 1024);
}

/** Reads every row of `xml` as the XLSX reader does; counts the times the scanner ran dry mid-row. */
async function readRows(xml: string, maxFieldBytes: number): Promise<{ rows: number; refills: number }> {
  const queue = new PieceQueue(piecesOf(xml));
  const scanner = new XmlScanner(() => queue.take(), 'sheet1.xml', maxFieldBytes);
  const rows = new SheetRows(scanner, { file: 'f.xlsx', sheet: 'S', sharedStrings: [], styles: CellStyles.none(), date1904: false, maxFieldBytes });
  let count = 0;
  let refills = 0;
  for (let state = rows.next(); ; state = rows.next()) {
    if (state === NEED_TEXT) {
      refills++;
      await queue.fill(scanner.keptChars);
    } else if (state === ROW_READY) count++;
    else return { rows: count, refills };
  }
}

describe('upload structure limits', () => {
  it('rejects a lying-directory XLSX bomb of 3 GB of whitespace (a few MB compressed) at the first run over the limit, naming file, sheet and row', async () => {
    const bomb = whitespaceWorkbook({ mebibytes: 3 * 1024, declaredBytes: 350 * MiB });
    expect(bomb.length).toBeLessThan(6 * MiB);
    await expectInputError(ONE_COLUMN, [upload('t.xlsx', bomb)], /^file 't\.xlsx', sheet 'items', after row 1: a run of text without a tag is longer than the limit of 4 MiB \(upload_max_field\)$/, undefined, 'UPLOAD_STRUCTURE_LIMIT');
  });

  it('rejects an honest workbook whose cell holds 100 MB of whitespace, naming the row', async () => {
    await expectInputError(ONE_COLUMN, [upload('t.xlsx', whitespaceWorkbook({ mebibytes: 100, inside: 'cell' }))], /'t\.xlsx', sheet 'items', row 2: the row \(or a cell or run of text in it\) is longer than the limit of 4 MiB/, undefined, 'UPLOAD_STRUCTURE_LIMIT');
  });

  it('reads whitespace runs and cells under the limit', async () => {
    await expectSuccess(ONE_COLUMN, [upload('t.xlsx', whitespaceWorkbook({ mebibytes: 3, inside: 'cell' }))]);
    await expectSuccess(ONE_COLUMN, [upload('t.xlsx', whitespaceWorkbook({ mebibytes: 3 }))]);
  });

  it('rescans a long row a logarithmic number of times: the text queued at least doubles at each refill', async () => {
    const cell = 'x'.repeat(3 * MiB);
    const xml = `<worksheet><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>${cell}</t></is></c></row></sheetData></worksheet>`;
    const { rows, refills } = await readRows(xml, 4 * MiB);
    expect(rows).toBe(1);
    // 48 pieces of 64 KiB: one refill each before, about log2(48) now.
    expect(refills).toBeLessThanOrEqual(8);
  });

  it('rejects a JSON string over the limit and JSON nested too deep, naming the file and line', async () => {
    const long = `[{"id": "a"},\n{"id": "${'x'.repeat(2 * MiB)}"}]`;
    await expectInputError(ONE_COLUMN, [upload('t.json', long)], /^file 't\.json', line 2: a JSON string is longer than the limit of 1 MiB \(upload_max_field\)$/, { maxFieldBytes: MiB }, 'UPLOAD_STRUCTURE_LIMIT');
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    await expectInputError(ONE_COLUMN, [upload('t.json', deep)], /'t\.json', line 1: the JSON nests deeper than 100 levels/, undefined, 'UPLOAD_STRUCTURE_LIMIT');
  });

  it('counts a quoted field of many lines as one record, and lines in it for the location', async () => {
    const field = `"${'a\n'.repeat(600)}"`;
    await expectInputError(SCHEMAS, [upload('items.csv', `id,qty,price\nA,1,2\n${field},1,2\nB,1,2\n`)], /'items\.csv', line 3: a quoted field opened in this record is not closed within the limit of 1000 bytes/, { maxFieldBytes: 1000 }, 'UPLOAD_STRUCTURE_LIMIT');
    await expectInputError(SCHEMAS, [upload('items.csv', `id,qty,price\n${field},1,2\n${'x'.repeat(2000)}\n`)], /'items\.csv', line 603: a CSV record is longer than the limit of 1500 bytes/, { maxFieldBytes: 1500 }, 'UPLOAD_STRUCTURE_LIMIT');
  });
});
