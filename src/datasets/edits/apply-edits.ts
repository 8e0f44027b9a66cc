import type { Cell, Column, Table } from '../../domain/dataset-model.js';
import type { FieldError } from '../../errors.js';
import { cellFits } from '../codec.js';
import { isInsert, isUpdate, type DataEdit, type DeleteEdit, type InsertEdit, type UpdateEdit } from './edit-model.js';
import { editProblems as problem } from './edit-problems.js';
import { findRepeat, keyColumnSets, type KeyColumns } from './key-repeats.js';
import { rowMatcher } from './row-matcher.js';
import type { TableShape, TableShapes } from './table-shape.js';

type Row = readonly Cell[];

export type EditsOutcome =
  | { readonly ok: true; readonly tables: ReadonlyMap<string, Table>; readonly rows: readonly number[] }
  | { readonly ok: false; readonly errors: readonly FieldError[] };

/**
 * Applies checked edits (see `validateEdits`) in order to the tables they name, and answers the new
 * tables and each edit's effect (rows updated, inserted or deleted); or every problem only the rows can
 * show (a key repeated after an edit, a scaled value out of its type's range), each at its edit. The
 * given tables are never changed: a table's rows are copied when first edited, and an updated row is
 * a new array.
 */
export function applyEdits(tables: Readonly<Record<string, Table>>, edits: readonly DataEdit[], shapes: TableShapes): EditsOutcome {
  const working = new Map<string, { columns: readonly Column[]; rows: Row[] }>();
  const errors: FieldError[] = [];
  const effects = edits.map((edit, i) => {
    let table = working.get(edit.table);
    if (!table) {
      const source = tables[edit.table]!;
      table = { columns: source.columns, rows: [...source.rows] };
      working.set(edit.table, table);
    }
    const shape = shapes.get(edit.table)!;
    const path = `edits[${i}]`;
    if (isUpdate(edit)) return update(table, edit, shape, `${path}.update`, errors);
    if (isInsert(edit)) return insert(table, edit, shape, `${path}.insert`, errors);
    return remove(table, edit);
  });
  if (errors.length > 0) return { ok: false, errors };
  return { ok: true, tables: working, rows: effects };
}

function update(table: { columns: readonly Column[]; rows: Row[] }, edit: UpdateEdit, shape: TableShape, path: string, errors: FieldError[]): number {
  const { columns, rows } = table;
  const matches = rowMatcher(edit.update.where, columns);
  const sets = Object.entries(edit.update.set ?? {}).map(([name, value]) => [indexOf(columns, name), value] as const);
  const scales = Object.entries(edit.update.scale ?? {}).map(([name, factor]) => [indexOf(columns, name), factor] as const);
  const reported = new Set<number>();
  let count = 0;
  for (let r = 0; r < rows.length; r++) {
    if (!matches(rows[r]!)) continue;
    const row = rows[r]!.slice();
    for (const [c, value] of sets) row[c] = value;
    for (const [c, factor] of scales) {
      const cell = row[c];
      if (typeof cell !== 'number') continue;
      const column = columns[c]!;
      const scaled = column.type === 'integer' ? Math.round(cell * factor) : cell * factor;
      if (!cellFits(scaled, column.type) && !reported.has(c)) {
        reported.add(c);
        errors.push({ path: `${path}.scale.${column.name}`, message: problem.scaledOutOfRange(column.name, column.type, r + 1, scaled) });
      }
      row[c] = scaled;
    }
    rows[r] = row;
    count++;
  }
  const changed = new Set([...sets, ...scales].map(([c]) => columns[c]!.name));
  const keys = keyColumnSets(shape).filter((key) => key.columns.some((name) => changed.has(name)));
  if (count > 0) checkKeys(rows, columns, keys, 0, path, errors);
  return count;
}

function insert(table: { columns: readonly Column[]; rows: Row[] }, edit: InsertEdit, shape: TableShape, path: string, errors: FieldError[]): number {
  const from = table.rows.length;
  for (const values of edit.insert) {
    table.rows.push(shape.columns.map((column) => (values[column.name] !== undefined ? values[column.name]! : column.default ?? null)));
  }
  checkKeys(table.rows, table.columns, keyColumnSets(shape), from, path, errors, from);
  return edit.insert.length;
}

function remove(table: { columns: readonly Column[]; rows: Row[] }, edit: DeleteEdit): number {
  const matches = rowMatcher(edit.delete.where, table.columns);
  const before = table.rows.length;
  table.rows = table.rows.filter((row) => !matches(row));
  return before - table.rows.length;
}

/** Reports each key (or unique column) that repeats at or after row `from`; inserted rows are named by their place in the edit. */
function checkKeys(rows: readonly Row[], columns: readonly Column[], keys: readonly KeyColumns[], from: number, path: string, errors: FieldError[], insertedFrom?: number): void {
  for (const key of keys) {
    const indexes = key.columns.map((name) => indexOf(columns, name));
    const repeat = findRepeat(rows, indexes, from);
    if (repeat === undefined) continue;
    const values = indexes.map((c) => rows[repeat]![c]!);
    const at = insertedFrom === undefined ? path : `${path}[${repeat - insertedFrom}]`;
    const message = key.kind === 'unique' ? problem.uniqueRepeated(key.columns[0]!, values[0]!, repeat + 1) : problem.keyRepeated(key.columns, values, repeat + 1);
    errors.push({ path: at, message });
  }
}

function indexOf(columns: readonly Column[], name: string): number {
  return columns.findIndex((c) => c.name === name);
}
