import type { Cell, Column, Table } from '../../domain/dataset-model.js';
import type { FieldError } from '../../errors.js';
import { cellFits } from '../codec.js';
import { isInsert, isUpdate, type DataEdit, type InsertEdit, type UpdateEdit } from '../../domain/edits/edit-model.js';
import { editRows } from '../../domain/edits/edit-rows.js';
import { editProblems as problem } from './edit-problems.js';
import { findRepeat, keyColumnSets, type KeyColumns } from './key-repeats.js';
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
    return editRows(table.columns, table.rows, edit);
  });
  if (errors.length > 0) return { ok: false, errors };
  return { ok: true, tables: working, rows: effects };
}

function update(table: { columns: readonly Column[]; rows: Row[] }, edit: UpdateEdit, shape: TableShape, path: string, errors: FieldError[]): number {
  const { columns, rows } = table;
  const reported = new Set<number>();
  const count = editRows(columns, rows, edit, {
    onScaled: ({ row, column: c, after }) => {
      const column = columns[c]!;
      if (cellFits(after, column.type) || reported.has(c)) return;
      reported.add(c);
      errors.push({ path: `${path}.scale.${column.name}`, message: problem.scaledOutOfRange(column.name, column.type, row + 1, after) });
    },
  });
  const changed = new Set([...Object.keys(edit.update.set ?? {}), ...Object.keys(edit.update.scale ?? {})]);
  const keys = keyColumnSets(shape).filter((key) => key.columns.some((name) => changed.has(name)));
  if (count > 0) checkKeys(rows, columns, keys, 0, path, errors);
  return count;
}

function insert(table: { columns: readonly Column[]; rows: Row[] }, edit: InsertEdit, shape: TableShape, path: string, errors: FieldError[]): number {
  const from = table.rows.length;
  const defaults = new Map(shape.columns.map((column) => [column.name, column.default ?? null]));
  const count = editRows(table.columns, table.rows, edit, { defaultOf: (column) => defaults.get(column.name) ?? null });
  checkKeys(table.rows, table.columns, keyColumnSets(shape), from, path, errors, from);
  return count;
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
