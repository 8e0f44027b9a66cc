import { describe, expect, it } from 'vitest';
import type { Cell } from '../../../src/datasets/model.js';
import { tablesJsonConsuming, type ConsumableTable } from '../../../src/datasets/ingest/tables-json.js';

const columns = [
  { name: 'sku', type: 'string' },
  { name: 'picks', type: 'float' },
] as const;

function table(rowCount: number): ConsumableTable {
  return { columns: [...columns], rows: Array.from({ length: rowCount }, (_, i): Cell[] => [`SKU-"${i}"\n`, i % 3 === 0 ? null : i * 1.5]) };
}

describe('the JSON of an upload’s tables, written while its rows are let go', () => {
  it('is exactly what JSON.stringify writes, for no table, empty tables and tables spanning many pieces', () => {
    const cases: Record<string, ConsumableTable>[] = [{}, { empty: table(0) }, { 'a "quoted" name': table(1), big: table(45_001), after: table(3) }];
    for (const tables of cases) {
      const expected = JSON.stringify(tables);
      expect(tablesJsonConsuming(tables)).toBe(expected);
    }
  });

  it('lets every row go once written', () => {
    const tables = { big: table(50_000) };
    tablesJsonConsuming(tables);
    expect(tables.big.rows).toHaveLength(50_000);
    expect(tables.big.rows.every((row) => row === undefined)).toBe(true);
  });
});
