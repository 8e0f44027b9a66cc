import { describe, expect, it } from 'vitest';
import type { Schemas } from '../../../src/domain/dataset-schema.js';
import { openCentralDirectory } from '../../../src/datasets/etl/zip-directory.js';
import { errors, expectFailure, expectInputError, expectSuccess, records, SCHEMAS, upload, workbook } from './support/fixtures.js';
import { sheetBomb, workbookWithSheet } from './support/sheet-bomb.js';

const TEXT: Schemas = { t: { tables: { t: { columns: { s: { type: 'string', nullable: true }, d: { type: 'datetime', nullable: true } } } } } };

function inflatedSize(data: Buffer): number {
  return openCentralDirectory(data).entries().reduce((sum, entry) => sum + entry.uncompressedSize, 0);
}

/** A one-sheet workbook whose sheet XML is exactly `xml` (for what spreadsheet writers do differently). */
function workbookOf(xml: string): Buffer {
  return workbookWithSheet({ content: Buffer.from(`<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>${xml}</sheetData></worksheet>`) });
}

describe('XLSX streaming reader and its budgets', () => {
  it('rejects a sheet bomb that passes the ratio check (about 170:1) from its declared size, before inflating it', async () => {
    const bomb = sheetBomb(450);
    const ratio = bomb.uncompressedSize / bomb.deflated.length;
    expect(ratio).toBeGreaterThan(100);
    expect(ratio).toBeLessThan(200);
    await expectInputError(SCHEMAS, [upload('items.xlsx', workbookWithSheet(bomb))], /'items\.xlsx': the upload's workbooks expand to more than the limit of 400 MiB uncompressed/);
  });

  it('charges every workbook of an upload to one inflate budget', async () => {
    const schemas: Schemas = { ...SCHEMAS, other: { required: false, tables: { other: { columns: { x: { type: 'integer' } } } } } };
    const rows = Array.from({ length: 3000 }, (_, i) => [`id${i}`, i, i / 2]);
    const items = await workbook({ items: [['id', 'qty', 'price'], ...rows] });
    const other = await workbook({ other: [['x'], ...rows.map((_, i) => [i])] });
    const limit = Math.max(inflatedSize(items), inflatedSize(other)) + 1;
    const one = await expectSuccess(schemas, [upload('items.xlsx', items)], { maxInflatedBytes: limit });
    expect(one.tables.items?.rows).toHaveLength(3000);
    await expectInputError(schemas, [upload('items.xlsx', items), upload('other.xlsx', other)], new RegExp(`'other\\.xlsx': the upload's workbooks expand to more than the limit of ${limit} bytes`), { maxInflatedBytes: limit });
  });

  it('charges the cell budget while the sheet is read', async () => {
    const data = await workbook({ items: [['id', 'qty', 'price'], ['A', 1, 1], ['B', 2, 2], ['C', 3, 3]] });
    await expectInputError(SCHEMAS, [upload('items.xlsx', data)], /'items\.xlsx': the upload holds more than the limit of 10 cells/, { maxCells: 10 });
    await expectSuccess(SCHEMAS, [upload('items.xlsx', data)], { maxCells: 12 });
  });

  it('reads inline strings and namespace-prefixed sheets as Excel and .NET writers produce them', async () => {
    const rows = [['id', 'qty', 'price'], ['A', 1, 1.5], [' padded ', 2, 3]];
    for (const options of [{ inlineStrings: true }, { prefix: 'x' }]) {
      const outcome = await expectSuccess(SCHEMAS, [upload('items.xlsx', await workbook({ items: rows }, options))]);
      expect(records(outcome.tables.items).map((r) => r.id)).toEqual(['A', ' padded ']);
    }
  });

  it('resolves character references, CDATA, OOXML escapes and leaves out phonetic runs', async () => {
    const data = workbookOf(
      '<row r="1"><c r="A1" t="inlineStr"><is><t>s</t></is></c><c r="B1" t="inlineStr"><is><t>d</t></is></c></row>' +
      '<row r="2"><c r="A2" t="inlineStr"><is><t>a &amp; b &lt;c&gt; &#233;&#x1F4E6;</t></is></c></row>' +
      '<row r="3"><c r="A3" t="inlineStr"><is><t><![CDATA[<raw> & text]]></t></is></c></row>' +
      '<row r="4"><c r="A4" t="inlineStr"><is><r><t>line_x000D_</t></r><r><t>two</t></r><rPh sb="0" eb="1"><t>ignored</t></rPh></is></c></row>' +
      '<row r="5"><c r="A5" t="str"><f>CONCAT("x","y")</f><v>xy</v></c><c r="B5" t="d"><v>2024-03-01T10:00:00</v></c></row>',
    );
    const outcome = await expectSuccess(TEXT, [upload('t.xlsx', data)]);
    expect(outcome.tables.t?.rows).toEqual([['a & b <c> é📦', null], ['<raw> & text', null], ['line\rtwo', null], ['xy', '2024-03-01T10:00:00']]);
  });

  it('places cells by their references, and cells without one after the previous cell', async () => {
    const data = workbookOf('<row r="1"><c r="A1" t="inlineStr"><is><t>s</t></is></c><c t="inlineStr"><is><t>d</t></is></c></row><row r="2"><c r="B2" t="inlineStr"><is><t>2024-01-02</t></is></c></row>');
    const outcome = await expectSuccess(TEXT, [upload('t.xlsx', data)]);
    expect(outcome.tables.t?.rows).toEqual([[null, '2024-01-02']]);
  });

  it('reports a cell that refers to a missing shared string, and a cell beyond column XFD', async () => {
    const missing = workbookOf('<row r="1"><c r="A1" t="inlineStr"><is><t>s</t></is></c><c r="B1" t="inlineStr"><is><t>d</t></is></c></row><row r="2"><c r="A2" t="s"><v>99</v></c></row>');
    const messages = await expectFailure(TEXT, [upload('t.xlsx', missing)]);
    expect(errors(messages)).toEqual([expect.objectContaining({ column: 's', row: 1, message: 'a reference to a shared string that does not exist cannot be a string' })]);
    const wide = workbookOf('<row r="1"><c r="A1" t="inlineStr"><is><t>s</t></is></c><c r="ZZZZ1"><v>1</v></c></row>');
    await expectInputError(TEXT, [upload('t.xlsx', wide)], /cell reference 'ZZZZ1' outside the worksheet/);
  });

  it('rejects a sheet cut off in the middle of an element', async () => {
    const data = workbookWithSheet({ content: Buffer.from('<worksheet><sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>s</t></is></c></row><row r="2"><c r="A2" t="in') });
    await expectInputError(TEXT, [upload('t.xlsx', data)], /not a readable XLSX workbook: xl\/worksheets\/sheet1\.xml ends in the middle of an element/);
  });

  it('reads every row of a sheet that inflates in many pieces, whatever falls on a piece boundary', async () => {
    const rows = Array.from({ length: 30_000 }, (_, i) => [`id <${i}> & "${'x'.repeat(i % 17)}"`, i, i / 4]);
    for (const options of [{}, { inlineStrings: true }]) {
      const outcome = await expectSuccess(SCHEMAS, [upload('items.xlsx', await workbook({ items: [['id', 'qty', 'price'], ...rows] }, options))]);
      expect(outcome.tables.items?.rows).toEqual(rows.map(([id, qty, price]) => [id, qty, price, true, null]));
    }
  });

  it('reads dates of a workbook using the 1904 date system', async () => {
    const data = await workbook({ t: [['s', 'd'], [null, new Date(Date.UTC(2024, 0, 31))], [null, new Date(Date.UTC(2024, 0, 31, 8, 30))]] }, { date1904: true });
    const outcome = await expectSuccess(TEXT, [upload('t.xlsx', data)]);
    expect(outcome.tables.t?.rows).toEqual([[null, '2024-01-31'], [null, '2024-01-31T08:30:00']]);
  });
});
