import { COLUMN_TYPES, type Cell, type Column, type ColumnType, type Dataset, type DatasetKind, type Table, type Tables } from '../domain/dataset-model.js';
import { checkName } from './names.js';
import { errors } from '../error-factories.js';

/**
 * The default JSON form of a dataset (docs/api/contract.md, "Datasets"):
 * `{ key, kind, created_at, tables: { <name>: { columns: [{ name, type }], rows: [[...]] } } }`.
 */

/**
 * The JSON form from stored parts, splicing the stored tables text in without re-parsing it. A derived
 * dataset's form ends with its `parent` and `edits`, which decoding ignores: the form of a derived
 * dataset ingests as a plain one (its parent may not exist where it goes).
 */
export function encodeStored(
  meta: { key: string; kind: DatasetKind; createdAt: string },
  tablesJson: string,
  lineage?: { readonly parent: string | null; readonly edits: readonly unknown[] },
): string {
  const head = `{"key":${JSON.stringify(meta.key)},"kind":${JSON.stringify(meta.kind)},"created_at":${JSON.stringify(meta.createdAt)},"tables":${tablesJson}`;
  if (!lineage || lineage.parent === null) return `${head}}`;
  return `${head},"parent":${JSON.stringify(lineage.parent)},"edits":${JSON.stringify(lineage.edits)}}`;
}

export function encodeDataset(dataset: Dataset): unknown {
  return { key: dataset.key, kind: dataset.kind, created_at: dataset.createdAt, tables: dataset.tables };
}

/** Parses the default JSON form; anything else is a 400 naming what is wrong. */
export function decodeDataset(json: unknown): Dataset {
  if (!isPlainObject(json)) throw errors.datasetNotObject(describe(json));
  const key = json.key;
  if (typeof key !== 'string') throw errors.datasetKeyNotString(describe(key));
  checkName(key, 'key');
  const kind = json.kind === undefined ? 'master' : json.kind;
  if (kind !== 'master' && kind !== 'derived') throw errors.datasetKindInvalid(describe(kind));
  const createdAt = json.created_at;
  const validCreatedAt = typeof createdAt === 'string' && !Number.isNaN(Date.parse(createdAt));
  return {
    key,
    kind,
    createdAt: validCreatedAt ? new Date(createdAt).toISOString() : new Date().toISOString(),
    tables: checkTables(json.tables),
  };
}

/** Validates a `tables` object: well-formed columns, rows of the right width, cells of the column's type. */
export function checkTables(tables: unknown): Tables {
  if (!isPlainObject(tables)) throw errors.datasetTablesNotObject(describe(tables));
  for (const [name, table] of Object.entries(tables)) checkTable(name, table);
  return tables as unknown as Tables;
}

function checkTable(name: string, table: unknown): asserts table is Table {
  if (!isPlainObject(table)) throw errors.tableNotObject(name, describe(table));
  const { columns, rows } = table;
  if (!Array.isArray(columns)) throw errors.tableColumnsNotArray(name);
  const seen = new Set<string>();
  columns.forEach((column: unknown, i) => {
    if (!isPlainObject(column) || typeof column.name !== 'string' || column.name === '') {
      throw errors.columnUnnamed(name, i);
    }
    if (!(COLUMN_TYPES as readonly unknown[]).includes(column.type)) {
      throw errors.columnTypeInvalid(name, column.name, describe(column.type), COLUMN_TYPES);
    }
    if (seen.has(column.name)) throw errors.columnTwice(name, column.name);
    seen.add(column.name);
  });
  if (!Array.isArray(rows)) throw errors.tableRowsNotArray(name);
  checkRows(name, columns as Column[], rows, 0);
}

/**
 * Checks rows of a table whose columns are checked already: each an array of the columns' width, each
 * cell of its column's type. `firstRow` is the index of `rows[0]` in the table (rows may come in pieces).
 */
export function checkRows(table: string, columns: readonly Column[], rows: readonly unknown[], firstRow: number): asserts rows is Cell[][] {
  const types = columns.map((c) => c.type);
  for (let r = 0; r < rows.length; r++) {
    const row: unknown = rows[r];
    if (!Array.isArray(row) || row.length !== types.length) {
      throw errors.rowWidthInvalid(table, firstRow + r, types.length);
    }
    for (let c = 0; c < types.length; c++) {
      if (!cellFits(row[c], types[c]!)) {
        throw errors.cellTypeInvalid(table, firstRow + r, columns[c]!.name, describe(row[c]), types[c]!);
      }
    }
  }
}

/** Whether `cell` is a value of a column of `type` (null, an empty cell, fits any). */
export function cellFits(cell: unknown, type: ColumnType): cell is Cell {
  if (cell === null) return true;
  switch (type) {
    case 'string':
      return typeof cell === 'string';
    case 'integer':
      return Number.isSafeInteger(cell);
    case 'float':
      return typeof cell === 'number' && Number.isFinite(cell);
    case 'boolean':
      return typeof cell === 'boolean';
    case 'datetime':
      return typeof cell === 'string' && !Number.isNaN(Date.parse(cell));
  }
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string') return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}...` : value);
  if (typeof value === 'object') return 'an object';
  // Left are primitives (a number, a boolean, `undefined` for a missing key), which print plainly.
  const primitive = value as number | boolean | bigint | symbol | undefined;
  return `${typeof primitive} ${String(primitive)}`;
}
