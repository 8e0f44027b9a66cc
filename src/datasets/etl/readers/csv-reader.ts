import { csvUnguarded } from '../../../exports/csv.js';
import { etlErrors } from '../error-factories.js';
import { decodeText } from '../decode-text.js';
import { rootTables } from '../group-tables.js';
import { detectDialect } from './csv-dialect.js';
import { CsvRecordGuard } from './csv-record-guard.js';
import { CsvRecordCursor } from './csv-records.js';
import type { GroupReader, RawTable, ReadContext } from './reader.js';

/** A CSV file fills its group's single root table; the first record is the header. */
export const readCsv: GroupReader = async (data, context) => {
  const table = targetTable(context);
  // Before decoding: a record over the limit (a 1 GB line, a quote never closed) fails in a native byte scan.
  csvRecordGuard(context.file, context.limits.maxFieldBytes).feed(data);
  const text = decodeText(context.file, data);
  const cursor = new CsvRecordCursor(context.file, text, detectDialect(text), context.limits.maxFieldBytes);
  const header = (cursor.next() ?? []).map(csvUnguarded);
  const tables = new Map<string, RawTable>();
  if (table !== undefined) tables.set(table, { header, forEachRow: (visit) => visitRecords(cursor, visit, context) });
  return tables;
};

/** Rows are parsed while they are validated (one pass, one reused array), and counted against the cell limit. */
function visitRecords(cursor: CsvRecordCursor, visit: (row: readonly string[], index: number) => void, { file, cells }: ReadContext): void {
  let index = 0;
  for (let record = cursor.next(); record !== undefined; record = cursor.next()) {
    cells.charge(file, 1, record.length);
    visit(unguarded(record), index++);
  }
}

const APOSTROPHE = 0x27;

/**
 * The record with the formula guard of our CSV exports taken off (`'=...` reads `=...`, see
 * src/exports/csv.ts), so an export uploaded back holds what was exported. Most records have no field
 * starting with `'`: those are passed on as they are, without a copy.
 */
function unguarded(record: readonly string[]): readonly string[] {
  for (const field of record) if (field.charCodeAt(0) === APOSTROPHE) return record.map(csvUnguarded);
  return record;
}

/** The table a CSV file can fill, logging an error for every table of the group it cannot. */
function targetTable({ group, groupName, file, log }: ReadContext): string | undefined {
  const roots = rootTables(group);
  const target = roots.length === 1 ? roots[0] : undefined;
  for (const table of Object.keys(group.tables)) {
    if (table === target) continue;
    const why = target === undefined ? `group '${groupName}' has several tables` : `a CSV file only fills table '${target}'`;
    log.add({ severity: 'error', file, table, message: `${why}; upload table '${table}' as a sheet of an XLSX file or in a JSON file` });
  }
  return target;
}

/** The record-length check of a CSV upload, failing with a 400 that names the file and line. */
export function csvRecordGuard(file: string, maxFieldBytes: number): CsvRecordGuard {
  return new CsvRecordGuard(maxFieldBytes, (where, problem) => etlErrors.structureLimit(file, where, problem));
}
