import type { Cell, Column, ColumnType } from '../dataset-model.js';
import { isRange, type Condition, type Where } from './edit-model.js';

export type RowMatcher = (row: readonly Cell[]) => boolean;

/**
 * The test of a `where` against rows of a table with `columns` (checked already: every column exists,
 * every value of its type). Date-times compare as instants, so `2024-05-01` matches the stored
 * `2024-05-01T00:00:00.000Z`; null matches an empty cell.
 */
export function rowMatcher(where: Where, columns: readonly Column[]): RowMatcher {
  const tests = Object.entries(where).map(([name, condition]) => {
    const index = columns.findIndex((c) => c.name === name);
    const test = cellTest(condition, columns[index]!.type);
    return (row: readonly Cell[]) => test(row[index]!);
  });
  if (tests.length === 0) return () => true;
  if (tests.length === 1) return tests[0]!;
  return (row) => tests.every((test) => test(row));
}

function cellTest(condition: Condition, type: ColumnType): (cell: Cell) => boolean {
  const comparable = type === 'datetime' ? instant : (value: Cell) => value;
  if (Array.isArray(condition)) {
    const values = new Set((condition as readonly Cell[]).map(comparable));
    return (cell) => values.has(comparable(cell));
  }
  if (isRange(condition)) {
    const gte = condition.gte === undefined ? undefined : comparable(condition.gte);
    const lte = condition.lte === undefined ? undefined : comparable(condition.lte);
    return (cell) => {
      const value = comparable(cell);
      if (value === null) return false;
      return (gte === undefined || gte === null || value >= gte) && (lte === undefined || lte === null || value <= lte);
    };
  }
  const wanted = comparable(condition);
  return (cell) => comparable(cell) === wanted;
}

function instant(value: Cell): Cell {
  return typeof value === 'string' ? Date.parse(value) : value;
}
