import { strFromU8, unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import type { Cell } from '../../src/domain/dataset-model.js';
import { xlsxStream, type SheetSource } from '../../src/exports/xlsx.js';

async function workbook(sheets: readonly SheetSource[]): Promise<Record<string, string>> {
  const parts: Uint8Array[] = [];
  for await (const part of xlsxStream(sheets)) parts.push(part);
  const files = unzipSync(Buffer.concat(parts));
  return Object.fromEntries(Object.entries(files).map(([name, bytes]) => [name, strFromU8(bytes)]));
}

const COLUMNS = [
  { name: 'name', type: 'string' as const },
  { name: 'value', type: 'float' as const },
];
const ROWS: Cell[][] = [
  ['a <b>', 1.5],
  ['c', null],
];

describe('the streamed XLSX writer', () => {
  it('writes the same sheet from rows at hand and from rows read as it goes', async () => {
    async function* later(): AsyncGenerator<Cell[]> {
      for (const row of ROWS) {
        await new Promise((resolve) => setImmediate(resolve));
        yield row;
      }
    }
    const atHand = await workbook([{ name: 'results', columns: COLUMNS, rows: ROWS }]);
    const read = await workbook([{ name: 'results', columns: COLUMNS, rows: later() }]);
    expect(read).toEqual(atHand);
    const sheet = atHand['xl/worksheets/sheet1.xml']!;
    expect(sheet).toContain('<row r="1"><c r="A1" t="inlineStr"><is><t xml:space="preserve">name</t></is></c>');
    expect(sheet).toContain('<row r="2"><c r="A2" t="inlineStr"><is><t xml:space="preserve">a &lt;b&gt;</t></is></c><c r="B2"><v>1.5</v></c></row>');
    expect(sheet).toContain('<row r="3"><c r="A3" t="inlineStr"><is><t xml:space="preserve">c</t></is></c></row>');
    expect(sheet.endsWith('</sheetData></worksheet>')).toBe(true);
  });

  it('reads an asynchronous source only as the archive is pulled', async () => {
    let read = 0;
    async function* counted(): AsyncGenerator<Cell[]> {
      for (let i = 0; i < 100_000; i++) {
        read++;
        yield [`row ${i}`, i];
      }
    }
    const stream = xlsxStream([{ name: 'results', columns: COLUMNS, rows: counted() }]);
    await stream.next();
    // The first compressed bytes come long before the last row is read.
    expect(read).toBeLessThan(100_000);
    await stream.return(undefined);
  });
});
