import type { Column } from '../api/types.ts';
import { isDelete, isInsert, isRange, type Cell, type Condition, type Edit, type Where } from './edits.ts';

/** One table of a dataset's JSON form: its columns and its rows as arrays in column order. */
export interface TableForm {
  columns: readonly Column[];
  rows: readonly (readonly unknown[])[];
}

/**
 * The editor's preview of what the server will store: the edits applied in order to a copy of the
 * base tables, with the rows each touched. The server applies and checks them again (it is the judge
 * of types and keys); the preview only lets a planner see the edited grid and each edit's row count
 * before creating the branch. Untouched tables and rows are shared with the base, not copied.
 */
export function applyEdits(base: Readonly<Record<string, TableForm>>, edits: readonly Edit[]): { tables: Record<string, TableForm>; rows: number[] } {
  const tables: Record<string, TableForm> = { ...base };
  const rows = edits.map((edit) => {
    const table = tables[edit.table];
    if (!table) return 0;
    const { form, touched } = applyOne(table, edit);
    tables[edit.table] = form;
    return touched;
  });
  return { tables, rows };
}

function applyOne(table: TableForm, edit: Edit): { form: TableForm; touched: number } {
  const { columns } = table;
  if (isInsert(edit)) {
    const added = edit.insert.map((record) => columns.map((c) => record[c.name] ?? null));
    return { form: { columns, rows: [...table.rows, ...added] }, touched: added.length };
  }
  const where = isDelete(edit) ? edit.delete.where : edit.update.where;
  const matches = matcher(columns, where);
  if (isDelete(edit)) {
    const kept = table.rows.filter((row) => !matches(row));
    return { form: { columns, rows: kept }, touched: table.rows.length - kept.length };
  }
  const { set = {}, scale = {} } = edit.update;
  const setAt = columns.map((c) => (c.name in set ? { value: set[c.name] } : null));
  const scaleAt = columns.map((c) => scale[c.name]);
  let touched = 0;
  const rows = table.rows.map((row) => {
    if (!matches(row)) return row;
    touched += 1;
    return row.map((value, i) => {
      const assigned = setAt[i];
      if (assigned) return assigned.value;
      const factor = scaleAt[i];
      return factor !== undefined && typeof value === 'number' ? roundLike(columns[i]!, value * factor) : value;
    });
  });
  return { form: { columns, rows }, touched };
}

/** An integer column scaled stays whole (the server rounds it the same way: half away from zero). */
function roundLike(column: Column, value: number): number {
  return column.type === 'integer' ? Math.sign(value) * Math.round(Math.abs(value)) : value;
}

/** A test of one row against every condition of a where (columns it does not name are free). */
export function matcher(columns: readonly Column[], where: Where): (row: readonly unknown[]) => boolean {
  const tests = Object.entries(where).map(([name, condition]) => {
    const at = columns.findIndex((c) => c.name === name);
    const test = conditionTest(condition);
    return (row: readonly unknown[]) => at >= 0 && test(row[at]);
  });
  return (row) => tests.every((test) => test(row));
}

function conditionTest(condition: Condition): (value: unknown) => boolean {
  if (Array.isArray(condition)) {
    const allowed = new Set<unknown>(condition);
    return (value) => allowed.has(value);
  }
  if (isRange(condition)) {
    const { gte, lte } = condition;
    return (value) => {
      if (typeof value !== 'number' && typeof value !== 'string') return false;
      return (gte === undefined || compare(value, gte) >= 0) && (lte === undefined || compare(value, lte) <= 0);
    };
  }
  const wanted: Cell = condition;
  return (value) => value === wanted;
}

function compare(a: number | string, b: number | string): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return String(a) < String(b) ? -1 : String(a) > String(b) ? 1 : 0;
}
