import type { Cell, Column, ColumnType } from '../dataset-model.js';
import { isInsert, isUpdate, type DataEdit, type RowValues, type UpdateEdit, type Where } from './edit-model.js';
import { rowMatcher } from './row-matcher.js';

/**
 * The effect of one edit on one table's rows: the rules the server stores a derived dataset by and the
 * dashboard previews it by. Both run this code (the dashboard imports it from the server's sources),
 * so the preview cannot match other rows or compute other values than the server. It imports nothing
 * but types, and nothing of Node: it runs in the browser as it is.
 */

type Row = readonly Cell[];

/** One scaled cell: its row (index in the rows as they were before the edit), column, value before, exact product, and the value stored. */
export interface ScaledCell {
  readonly row: number;
  readonly column: number;
  readonly before: number;
  readonly exact: number;
  readonly after: number;
}

export interface EditRowsOptions {
  /** The value an inserted row takes for a column it leaves out (the server: the column's declared default). */
  readonly defaultOf?: (column: Column) => Cell;
  /** Called for each cell an update scales, in row order. */
  readonly onScaled?: (cell: ScaledCell) => void;
}

/**
 * A scaled value as stored: the product, rounded to the nearest integer in an integer column (a half
 * rounds up, as JavaScript's Math.round: 0.5 → 1, −0.5 → 0). Each row is rounded on its own, so a
 * column of 1s scaled by 0.5 stays all 1s: the dashboard's preview warns where rounding changed a value.
 */
export function scaleCell(value: number, factor: number, type: ColumnType): number {
  const exact = value * factor;
  return type === 'integer' ? Math.round(exact) : exact;
}

/**
 * Applies one edit to `rows` (changed in place: the caller's own copy; an updated row is a new array,
 * so rows shared with another table are never changed), and answers how many rows it updated, inserted
 * or deleted.
 */
export function editRows(columns: readonly Column[], rows: Row[], edit: DataEdit, options: EditRowsOptions = {}): number {
  if (isUpdate(edit)) return updateRows(columns, rows, edit.update, options.onScaled);
  if (isInsert(edit)) return insertRows(columns, rows, edit.insert, options.defaultOf ?? (() => null));
  return deleteRows(columns, rows, edit.delete.where);
}

function updateRows(columns: readonly Column[], rows: Row[], update: UpdateEdit['update'], onScaled: EditRowsOptions['onScaled']): number {
  const matches = rowMatcher(update.where, columns);
  const sets = Object.entries(update.set ?? {}).map(([name, value]) => [indexOf(columns, name), value] as const);
  const scales = Object.entries(update.scale ?? {}).map(([name, factor]) => [indexOf(columns, name), factor] as const);
  let count = 0;
  for (let r = 0; r < rows.length; r++) {
    if (!matches(rows[r]!)) continue;
    const row = rows[r]!.slice();
    for (const [c, value] of sets) row[c] = value;
    for (const [c, factor] of scales) {
      const before = row[c];
      // Empty cells stay empty.
      if (typeof before !== 'number') continue;
      const after = scaleCell(before, factor, columns[c]!.type);
      row[c] = after;
      onScaled?.({ row: r, column: c, before, exact: before * factor, after });
    }
    rows[r] = row;
    count++;
  }
  return count;
}

function insertRows(columns: readonly Column[], rows: Row[], values: readonly RowValues[], defaultOf: (column: Column) => Cell): number {
  for (const given of values) rows.push(columns.map((column) => (given[column.name] !== undefined ? given[column.name]! : defaultOf(column))));
  return values.length;
}

function deleteRows(columns: readonly Column[], rows: Row[], where: Where): number {
  const matches = rowMatcher(where, columns);
  const before = rows.length;
  // Compacted in place: a table may hold 100k rows, too many to pass as arguments.
  let kept = 0;
  for (const row of rows) if (!matches(row)) rows[kept++] = row;
  rows.length = kept;
  return before - kept;
}

function indexOf(columns: readonly Column[], name: string): number {
  return columns.findIndex((c) => c.name === name);
}
