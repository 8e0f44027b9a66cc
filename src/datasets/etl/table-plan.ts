import type { Cell, ColumnType } from '../../domain/dataset-model.js';
import type { ColumnSpec, TableSpec } from '../../domain/dataset-schema.js';
import { COERCERS, Invalid, type Coercer } from './coerce.js';
import { matchColumns } from './column-match.js';
import type { MessageLog } from './messages.js';
import { showValue } from './show-value.js';

/** Marks a column whose empty cells are errors. */
export const REQUIRED: unique symbol = Symbol('required');

/** How to fill one output column from a raw table. */
export interface ColumnPlan {
  readonly name: string;
  readonly type: ColumnType;
  /** Index of the raw column, or -1 when the file lacks it (every row takes `absentValue`). */
  readonly source: number;
  readonly coerce: Coercer;
  readonly whenEmpty: Cell | typeof REQUIRED;
  readonly absentValue: Cell;
  readonly primaryKey: boolean;
  readonly unique: boolean;
}

export interface TableWhere {
  readonly file: string;
  readonly table: string;
}

/**
 * Plans the output columns in schema declaration order, matching them to the header (trimmed names;
 * exact, then case-insensitive) and logging column-level findings: a missing required column (error),
 * an absent optional one (info: filled with its default), and header columns the schema does not
 * declare (warning: dropped; an error when the name repeats a matched column, since which one is meant
 * is unknown).
 */
export function planColumns(spec: TableSpec, header: readonly string[], where: TableWhere, log: MessageLog): ColumnPlan[] {
  const names = Object.keys(spec.columns);
  const { indexes, unmatched } = matchColumns(names, header);
  const plans = names.map((name, i) => planColumn(name, spec.columns[name]!, indexes[i]!, where, log));
  const matchedNames = new Set(indexes.filter((i) => i >= 0).map((i) => header[i]!.trim().toLowerCase()));
  for (const index of unmatched) reportExtraColumn(header[index]!.trim(), index, matchedNames, where, log);
  return plans;
}

function planColumn(name: string, column: ColumnSpec, source: number, where: TableWhere, log: MessageLog): ColumnPlan {
  const fallback = declaredDefault(name, column, where.table);
  const primaryKey = column.primaryKey === true;
  if (source < 0) reportAbsentColumn(name, column, fallback, where, log);
  return {
    name,
    type: column.type,
    source,
    coerce: COERCERS[column.type],
    // A primary key is never null, whatever `nullable` says.
    whenEmpty: column.nullable && !primaryKey ? null : fallback ?? REQUIRED,
    absentValue: fallback ?? null,
    primaryKey,
    unique: column.unique === true,
  };
}

/** The column's `default` as a value of its type; a default that does not fit is a schema bug. */
function declaredDefault(name: string, column: ColumnSpec, table: string): Cell | undefined {
  if (column.default === undefined || column.default === null) return column.default;
  const value = COERCERS[column.type](column.default);
  if (value instanceof Invalid) {
    throw new Error(`schema: the default of column '${name}' of table '${table}' is not a ${column.type}: ${value.reason}`);
  }
  return value;
}

function reportAbsentColumn(name: string, column: ColumnSpec, fallback: Cell | undefined, where: TableWhere, log: MessageLog): void {
  if (column.required ?? true) {
    log.add({ severity: 'error', ...where, column: name, message: `required column '${name}' is missing` });
  } else {
    const value = fallback === undefined || fallback === null ? 'empty values' : `its default ${showValue(fallback)}`;
    log.add({ severity: 'info', ...where, column: name, message: `optional column '${name}' is absent; filled with ${value}` });
  }
}

function reportExtraColumn(name: string, index: number, matched: ReadonlySet<string>, where: TableWhere, log: MessageLog): void {
  if (name === '') {
    log.addCapped('unnamed-column', 'columns without a name', { severity: 'warning', ...where, message: `column ${index + 1} has no name in the header; ignored` });
  } else if (matched.has(name.toLowerCase())) {
    log.add({ severity: 'error', ...where, column: name, message: `column '${name}' appears more than once in the header` });
  } else {
    const message = `unexpected column '${name}' is not in the schema; ignored`;
    log.addCapped('extra-column', 'unexpected columns', { severity: 'warning', ...where, column: name, message }, false);
  }
}
