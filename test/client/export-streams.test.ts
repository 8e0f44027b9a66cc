import { strFromU8, unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import type { Cell } from '../../src/domain/dataset-model.js';
import { columnLetters, sheetNames, xlsxStream } from '../../src/exports/xlsx.js';
import { zipStream } from '../../src/exports/zip-stream.js';

const MILLION = 1_000_000;

/** Rows made on demand, counting how many were asked for so far. */
function countedRows(total: number) {
  const counter = { made: 0 };
  function* rows(): Generator<readonly Cell[]> {
    for (let i = 0; i < total; i++) {
      counter.made++;
      yield [`row ${i}`, i];
    }
  }
  return { counter, rows: rows() };
}

describe('export streams', () => {
  it('hand out the first zip bytes of a 1M-row export long before its rows are all produced', async () => {
    const { counter, rows } = countedRows(MILLION);
    const text = (function* () {
      for (const row of rows) yield `${row.join(',')}\r\n`;
    })();
    const stream = zipStream([{ name: 't.csv', text }]);
    const first = await stream.next();
    expect(first.done).toBe(false);
    expect(counter.made).toBeLessThan(MILLION / 10);
    await stream.return(undefined);
  });

  it('write an XLSX sheet row by row, pulled by the reader', async () => {
    const { counter, rows } = countedRows(MILLION);
    const stream = xlsxStream([{ name: 'big', columns: [{ name: 's', type: 'string' }, { name: 'n', type: 'integer' }], rows }]);
    let chunks = 0;
    for await (const chunk of stream) {
      expect(chunk.byteLength).toBeGreaterThan(0);
      if (++chunks === 8) break;
    }
    expect(counter.made).toBeLessThan(MILLION / 10);
  });

  it('produce a complete archive when read to the end', async () => {
    const parts: Uint8Array[] = [];
    for await (const chunk of xlsxStream([{ name: 'small', columns: [{ name: 'a', type: 'integer' }], rows: [[1], [2]] }])) parts.push(chunk);
    const bytes = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0));
    let at = 0;
    for (const p of parts) bytes.set(p, (at += p.byteLength) - p.byteLength);
    const files = unzipSync(bytes);
    expect(Object.keys(files).sort()).toEqual(['[Content_Types].xml', '_rels/.rels', 'xl/_rels/workbook.xml.rels', 'xl/styles.xml', 'xl/workbook.xml', 'xl/worksheets/sheet1.xml']);
    expect(strFromU8(files['xl/worksheets/sheet1.xml']!)).toContain('<row r="3"><c r="A3"><v>2</v></c></row>');
  });

  it('name columns and sheets as Excel needs', () => {
    expect([0, 25, 26, 27, 701, 702].map(columnLetters)).toEqual(['A', 'Z', 'AA', 'AB', 'ZZ', 'AAA']);
    expect(sheetNames(['a/b', 'A/B', 'x'.repeat(40)])).toEqual(['a_b', 'A_B~2', 'x'.repeat(31)]);
  });
});
