import type { FieldError } from '../../errors.js';
import { cellFits } from '../codec.js';
import type { Condition, DataEdit, RowValues, Where } from '../../domain/edits/edit-model.js';
import { editProblems as problem, show } from './edit-problems.js';
import type { ColumnShape, TableShape, TableShapes } from './table-shape.js';

export type EditsCheck = { readonly ok: true; readonly edits: readonly DataEdit[] } | { readonly ok: false; readonly errors: readonly FieldError[] };

const EDIT_FIELDS = ['table', 'update', 'insert', 'delete'] as const;
const UPDATE_FIELDS = ['where', 'set', 'scale'] as const;
const DELETE_FIELDS = ['where'] as const;
const RANGE_FIELDS = ['gte', 'lte'] as const;

/**
 * Checks edits as they came over the wire against the dataset's tables, and reports every problem of
 * every edit at once (`edits[3].update.set.daily_picks`). What depends on the rows (keys repeated after
 * the edit, a scaled value out of its type's range) is checked as the edits are applied.
 */
export function validateEdits(input: unknown, shapes: TableShapes): EditsCheck {
  const errors: FieldError[] = [];
  if (!Array.isArray(input)) return { ok: false, errors: [{ path: 'edits', message: problem.notAList() }] };
  input.forEach((edit: unknown, i) => checkEdit(edit, `edits[${i}]`, shapes, errors));
  return errors.length > 0 ? { ok: false, errors } : { ok: true, edits: input as DataEdit[] };
}

function checkEdit(edit: unknown, path: string, shapes: TableShapes, errors: FieldError[]): void {
  if (!isObject(edit)) return void errors.push({ path, message: problem.notAnObject() });
  unknownFields(edit, EDIT_FIELDS, path, errors);
  const actions = (['update', 'insert', 'delete'] as const).filter((a) => a in edit);
  if (actions.length !== 1) errors.push({ path, message: problem.oneAction() });
  const shape = checkTable(edit.table, `${path}.table`, shapes, errors);
  if (!shape || actions.length !== 1) return;
  const table = edit.table as string;
  const action = actions[0]!;
  const at = `${path}.${action}`;
  if (action === 'insert') return checkInsert(edit.insert, at, table, shape, errors);
  const body = edit[action];
  if (!isObject(body)) return void errors.push({ path: at, message: problem.notAnObject() });
  unknownFields(body, action === 'update' ? UPDATE_FIELDS : DELETE_FIELDS, at, errors);
  checkWhere(body.where, `${at}.where`, table, shape, errors);
  if (action === 'update') checkUpdate(body, at, table, shape, errors);
}

function checkTable(table: unknown, path: string, shapes: TableShapes, errors: FieldError[]): TableShape | undefined {
  if (typeof table !== 'string' || table === '') return void errors.push({ path, message: problem.noTable() });
  const shape = shapes.get(table);
  if (!shape) errors.push({ path, message: problem.unknownTable(table, [...shapes.keys()]) });
  return shape;
}

function checkWhere(where: unknown, path: string, table: string, shape: TableShape, errors: FieldError[]): asserts where is Where {
  if (where === undefined) return void errors.push({ path, message: problem.whereMissing() });
  if (!isObject(where)) return void errors.push({ path, message: problem.notAnObject() });
  for (const [name, condition] of Object.entries(where)) {
    const column = columnOf(shape, table, name, `${path}.${name}`, errors);
    if (column) checkCondition(condition as Condition, `${path}.${name}`, column, errors);
  }
}

function checkCondition(condition: Condition, path: string, column: ColumnShape, errors: FieldError[]): void {
  if (Array.isArray(condition)) {
    if (condition.length === 0) errors.push({ path, message: problem.emptyList() });
    condition.forEach((value: unknown, i) => checkMatchValue(value, `${path}[${i}]`, column, errors));
  } else if (isObject(condition)) {
    checkRange(condition, path, column, errors);
  } else {
    checkMatchValue(condition, path, column, errors);
  }
}

/** A value compared with cells: of the column's type, or null (matches empty cells). */
function checkMatchValue(value: unknown, path: string, column: ColumnShape, errors: FieldError[]): void {
  if (value === undefined || !cellFits(value, column.type)) errors.push({ path, message: problem.wrongType(column.type, show(value)) });
}

function checkRange(range: Readonly<Record<string, unknown>>, path: string, column: ColumnShape, errors: FieldError[]): void {
  if (column.type === 'boolean') return void errors.push({ path, message: problem.rangeNotOrderable(column.type) });
  unknownFields(range, RANGE_FIELDS, path, errors);
  const ends = RANGE_FIELDS.filter((end) => range[end] !== undefined);
  if (ends.length === 0) return void errors.push({ path, message: problem.rangeEmpty() });
  for (const end of ends) {
    if (range[end] === null || !cellFits(range[end], column.type)) errors.push({ path: `${path}.${end}`, message: problem.wrongType(column.type, show(range[end])) });
  }
  const { gte, lte } = range as { gte?: number | string; lte?: number | string };
  if (gte !== undefined && lte !== undefined && typeof gte === typeof lte && gte > lte) errors.push({ path, message: problem.rangeReversed() });
}

function checkUpdate(body: Readonly<Record<string, unknown>>, path: string, table: string, shape: TableShape, errors: FieldError[]): void {
  const { set, scale } = body;
  if (set === undefined && scale === undefined) return void errors.push({ path, message: problem.nothingToUpdate() });
  if (set !== undefined) {
    if (!isObject(set)) errors.push({ path: `${path}.set`, message: problem.notAnObject() });
    else checkValues(set, `${path}.set`, table, shape, errors);
  }
  if (scale === undefined) return;
  if (!isObject(scale)) return void errors.push({ path: `${path}.scale`, message: problem.notAnObject() });
  for (const [name, factor] of Object.entries(scale)) {
    const at = `${path}.scale.${name}`;
    const column = columnOf(shape, table, name, at, errors);
    if (!column) continue;
    if (column.type !== 'integer' && column.type !== 'float') errors.push({ path: at, message: problem.scaleNotNumeric(name, column.type) });
    else if (typeof factor !== 'number' || !Number.isFinite(factor)) errors.push({ path: at, message: problem.scaleNotFinite(show(factor)) });
    if (isObject(set) && name in set) errors.push({ path: at, message: problem.setAndScale(name) });
  }
}

/** Values given by column (`set`, an inserted row): each column known, each value of its type, null only where allowed. */
function checkValues(values: Readonly<Record<string, unknown>>, path: string, table: string, shape: TableShape, errors: FieldError[]): void {
  for (const [name, value] of Object.entries(values)) {
    const at = `${path}.${name}`;
    const column = columnOf(shape, table, name, at, errors);
    if (!column) continue;
    if (value === null) {
      if (!column.nullable) errors.push({ path: at, message: problem.notNullable(name) });
    } else if (!cellFits(value, column.type)) {
      errors.push({ path: at, message: problem.wrongType(column.type, show(value)) });
    }
  }
}

function checkInsert(rows: unknown, path: string, table: string, shape: TableShape, errors: FieldError[]): void {
  if (!Array.isArray(rows)) return void errors.push({ path, message: problem.notAList() });
  if (rows.length === 0) return void errors.push({ path, message: problem.noRows() });
  rows.forEach((row: unknown, i) => {
    const at = `${path}[${i}]`;
    if (!isObject(row)) return void errors.push({ path: at, message: problem.notAnObject() });
    checkValues(row, at, table, shape, errors);
    for (const column of shape.columns) {
      if ((row as RowValues)[column.name] === undefined && column.default === undefined) {
        errors.push({ path: `${at}.${column.name}`, message: problem.columnMissing(column.name) });
      }
    }
  });
}

function columnOf(shape: TableShape, table: string, name: string, path: string, errors: FieldError[]): ColumnShape | undefined {
  const column = shape.columns.find((c) => c.name === name);
  if (!column) errors.push({ path, message: problem.unknownColumn(table, name) });
  return column;
}

function unknownFields(object: Readonly<Record<string, unknown>>, allowed: readonly string[], path: string, errors: FieldError[]): void {
  for (const name of Object.keys(object)) {
    if (!allowed.includes(name)) errors.push({ path: `${path}.${name}`, message: problem.unknownField(name, allowed) });
  }
}

function isObject(value: unknown): value is Readonly<Record<string, unknown>> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
