import type { Cell, ColumnType } from '../../domain/dataset-model.js';

/** The words of each problem an edit can have: the `message` of its entry in `errors` (the path says where). */
export const editProblems = {
  notAnObject: () => 'must be an object',
  notAList: () => 'must be a list of edits',
  noTable: () => 'must name the table to edit',
  unknownTable: (table: string, tables: readonly string[]) => `the dataset has no table '${table}'; its tables are ${tables.map((t) => `'${t}'`).join(', ') || 'none'}`,
  oneAction: () => 'must hold exactly one of update, insert or delete',
  unknownField: (name: string, allowed: readonly string[]) => `'${name}' is not a field here; allowed are ${allowed.join(', ')}`,
  whereMissing: () => 'is required: {} matches every row',
  nothingToUpdate: () => 'an update needs set or scale (or both)',
  unknownColumn: (table: string, column: string) => `table '${table}' has no column '${column}'`,
  wrongType: (type: ColumnType, got: string) => `must be ${articleOf(type)} ${type} value, got ${got}`,
  notNullable: (column: string) => `column '${column}' may not be empty (null)`,
  emptyList: () => 'a list of values must hold at least one value',
  rangeEmpty: () => 'a range needs gte, lte or both',
  rangeNotOrderable: (type: ColumnType) => `a ${type} column takes a value or a list of values, not a range`,
  rangeReversed: () => 'gte is above lte: no value can match',
  scaleNotNumeric: (column: string, type: ColumnType) => `column '${column}' is ${type}: only integer and float columns scale`,
  scaleNotFinite: (got: string) => `a factor must be a finite number, got ${got}`,
  setAndScale: (column: string) => `column '${column}' is both set and scaled; do one`,
  noRows: () => 'must hold at least one row',
  columnMissing: (column: string) => `column '${column}' has no default and may not be empty: give it a value`,
  scaledOutOfRange: (column: string, type: ColumnType, row: number, got: number) => `scaling '${column}' gives ${got} in row ${row}, not ${articleOf(type)} ${type} value`,
  keyRepeated: (columns: readonly string[], values: readonly Cell[], row: number) =>
    `${columns.length === 1 ? `key column '${columns[0]}'` : `key (${columns.join(', ')})`} = ${values.map(show).join(', ')} would repeat in row ${row}`,
  uniqueRepeated: (column: string, value: Cell, row: number) => `unique column '${column}' = ${show(value)} would repeat in row ${row}`,
  /** A rebase (docs/api/cycles.md): the edit's `where` found rows in the data it was made on, and finds none in the new data. */
  matchesNoRowNow: (table: string, before: number) => `matched ${before} row${before === 1 ? '' : 's'} of table '${table}' before and matches none in the new data`,
};

function articleOf(type: ColumnType): string {
  return type === 'integer' ? 'an' : 'a';
}

/** A value as a message shows it: JSON, shortened. */
export function show(value: unknown): string {
  if (value === undefined) return 'nothing';
  // JSON.stringify answers undefined only for functions and symbols, which parsed JSON never holds.
  const text = JSON.stringify(value) ?? typeof value;
  return text.length > 40 ? `${text.slice(0, 40)}...` : text;
}

/** The words of a warning about an edit that was stored all the same. */
export const editWarnings = {
  matchesNoRow: (table: string) => `matches no row of table '${table}': stored with rows 0, it changed nothing`,
};
