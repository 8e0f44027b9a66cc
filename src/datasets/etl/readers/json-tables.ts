import { matchName } from '../column-match.js';
import { childTables, primaryKeyColumn } from '../group-tables.js';
import { BadCell, rawTableOf, type RawCell, type RawTable, type ReadContext, type RowLocation } from './reader.js';

/** Records of one table, with where each came from and, for a nested child, its parent's key value. */
interface Batch {
  readonly records: readonly unknown[];
  /** Per record; absent for a top-level array, whose record `i` is row `i + 1`. */
  readonly locations?: readonly RowLocation[];
  /** Per record of a nested child table: the raw primary-key value of its parent record. */
  readonly parentKeys?: readonly unknown[];
}

type JsonRecord = Record<string, unknown>;

const NESTED_OBJECT = new BadCell('a nested object');
/** A cell holding an array: a nested child table's records, when the schema declares one (else an error). */
export const NESTED_ARRAY = new BadCell('a nested array');

/**
 * Turns the arrays of records given per table into raw tables, then gathers each child table not given
 * on its own from the nested arrays of its parent's records (recursively, so grandchildren work too).
 */
export function buildJsonTables(given: ReadonlyMap<string, unknown[]>, context: ReadContext): Map<string, RawTable> {
  const tables = new Map<string, RawTable>();
  const queue: [string, Batch][] = [...given].map(([table, records]) => [table, { records }]);
  for (let next = queue.shift(); next !== undefined; next = queue.shift()) {
    const [table, batch] = next;
    const { raw, objects, keys } = readBatch(table, batch, context);
    tables.set(table, raw);
    for (const [child, spec] of childTables(context.group, table)) {
      const field = keys[matchName(spec.parent.field, keys)];
      if (given.has(child)) {
        if (field !== undefined) warnNestedIgnored(context, table, child, field);
        continue;
      }
      queue.push([child, nestedBatch(table, objects, field ?? spec.parent.field, keys, context)]);
    }
  }
  return tables;
}

interface ReadBatch {
  readonly raw: RawTable;
  /** The object records that became rows, with their locations, for gathering nested children. */
  readonly objects: { readonly records: JsonRecord[]; readonly locations: RowLocation[] };
  /** Every key seen in the records, nesting fields included. */
  readonly keys: string[];
}

function readBatch(table: string, batch: Batch, context: ReadContext): ReadBatch {
  const spec = context.group.tables[table]!;
  const found = keyUnion(batch.records);
  // Without records there are no keys; the table lacks no column then, so take the declared ones.
  const keys = found.length > 0 ? found : Object.keys(spec.columns);
  const nested = new Set(childTables(context.group, table).map(([, child]) => keys[matchName(child.parent.field, keys)]));
  const header = keys.filter((key) => !nested.has(key));
  let foreignKey = -1;
  if (spec.parent && batch.parentKeys) {
    foreignKey = matchName(spec.parent.foreignKey, header);
    if (foreignKey < 0) foreignKey = header.push(spec.parent.foreignKey) - 1;
  }
  // Charged before the grid is built: records with keys of their own make the header as long as the
  // file, and the grid quadratic (20,000 such records would be 400 million cells).
  context.cells.charge(context.file, batch.records.length, header.length);
  const rows: RawCell[][] = [];
  const objects = { records: [] as JsonRecord[], locations: [] as RowLocation[] };
  batch.records.forEach((record, i) => {
    const location = batch.locations?.[i] ?? { row: i + 1 };
    if (!isRecord(record)) {
      context.log.addCapped('json-record', 'records that are not objects', {
        severity: 'error', file: context.file, table, row: location.row,
        message: `${prefix(location)}the record is ${describe(record)}, not an object of column values`,
      });
      return;
    }
    const row = header.map((key) => toRawCell(record[key]));
    if (foreignKey >= 0) row[foreignKey] = toRawCell(batch.parentKeys![i]);
    rows.push(row);
    objects.records.push(record);
    objects.locations.push(location);
  });
  const locations = objects.locations;
  return { raw: rawTableOf(header, rows, (index) => locations[index]!), objects, keys };
}

/** Child records found under `field` in each parent record, each located at its parent's row. */
function nestedBatch(parent: string, objects: ReadBatch['objects'], field: string, parentKeys: string[], context: ReadContext): Batch {
  const parentSpec = context.group.tables[parent]!;
  const primaryKey = primaryKeyColumn(parentSpec);
  if (primaryKey === undefined) throw new Error(`schema: table '${parent}' needs exactly one primaryKey column to nest child tables`);
  const keyField = parentKeys[matchName(primaryKey, parentKeys)] ?? primaryKey;
  const batch = { records: [] as unknown[], locations: [] as RowLocation[], parentKeys: [] as unknown[] };
  objects.records.forEach((record, i) => {
    const items = record[field];
    const location = objects.locations[i]!;
    if (items === undefined || items === null) return;
    if (!Array.isArray(items)) {
      context.log.addCapped('json-nesting', `non-array '${field}' values`, {
        severity: 'error', file: context.file, table: parent, column: field, row: location.row,
        message: `${prefix(location)}'${field}' is ${describe(items)}, not an array of records`,
      });
      return;
    }
    items.forEach((item: unknown, k) => {
      const detail = `item ${k + 1} of '${field}'`;
      batch.records.push(item);
      batch.locations.push({ row: location.row, detail: location.detail ? `${location.detail}, ${detail}` : detail });
      batch.parentKeys.push(record[keyField]);
    });
  });
  return batch;
}

function warnNestedIgnored(context: ReadContext, table: string, child: string, field: string): void {
  context.log.add({
    severity: 'warning', file: context.file, table, column: field,
    message: `table '${child}' is given as its own array, so the records nested under '${field}' are ignored`,
  });
}

/** Keys of all object records in first-seen order. */
function keyUnion(records: readonly unknown[]): string[] {
  const seen = new Set<string>();
  for (const record of records) {
    if (isRecord(record)) for (const key in record) seen.add(key);
  }
  return [...seen];
}

function isRecord(value: unknown): value is JsonRecord {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function toRawCell(value: unknown): RawCell {
  switch (typeof value) {
    case 'string':
    case 'number':
    case 'boolean':
    case 'undefined':
      return value;
    default:
      if (value === null) return null;
      return Array.isArray(value) ? NESTED_ARRAY : NESTED_OBJECT;
  }
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

function prefix(location: RowLocation): string {
  return location.detail ? `${location.detail}: ` : '';
}
