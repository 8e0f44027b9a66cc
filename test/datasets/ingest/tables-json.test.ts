import { describe, expect, it } from 'vitest';
import type { Cell } from '../../../src/domain/dataset-model.js';
import { tablesJsonConsuming, type ConsumableTable } from '../../../src/datasets/ingest/tables-json.js';

/** Pieces of 1,000 rows from 2,000 rows on, so small tables exercise both ways of writing. */
const SIZES = { rowsPerPiece: 1_000, piecesFromRows: 2_000 };

const columns = [
  { name: 'sku', type: 'string' },
  { name: 'picks', type: 'float' },
] as const;

function table(rowCount: number): ConsumableTable {
  return { columns: [...columns], rows: Array.from({ length: rowCount }, (_, i): Cell[] => [`SKU-"${i}"\n`, i % 3 === 0 ? null : i * 1.5]) };
}

describe('the JSON of an upload’s tables, written while its rows are let go', () => {
  it('is exactly what JSON.stringify writes, for no table, empty tables, small tables and tables spanning many pieces', () => {
    const cases: Record<string, ConsumableTable>[] = [
      {},
      { empty: table(0) },
      { small: table(1_999) },
      { empty: table(0), 'a "quoted" name': table(1), big: table(4_501), after: table(3) },
      { exact: table(2_000) },
    ];
    for (const tables of cases) {
      const expected = JSON.stringify(tables);
      expect(tablesJsonConsuming(tables, SIZES)).toBe(expected);
    }
  });

  it('lets every row of large tables go once written, and leaves small ones alone', () => {
    const large = { big: table(5_000) };
    tablesJsonConsuming(large, SIZES);
    expect(large.big.rows).toHaveLength(5_000);
    expect(large.big.rows.every((row) => row === undefined)).toBe(true);
    const small = { few: table(10) };
    tablesJsonConsuming(small, SIZES);
    expect(small.few.rows.every((row) => row !== undefined)).toBe(true);
  });

  it('writes the real sizes the same way', () => {
    const tables = { big: table(210_000) };
    const expected = JSON.stringify(tables);
    expect(tablesJsonConsuming(tables)).toBe(expected);
    expect(tables.big.rows[0]).toBeUndefined();
  });
});
