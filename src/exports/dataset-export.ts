import { Readable } from 'node:stream';
import type { Dataset, Table } from '../domain/dataset-model.js';
import { batched } from './chunks.js';
import { attachment } from './content-disposition.js';
import { csvLines } from './csv.js';
import { sheetNames, xlsxStream } from './xlsx.js';
import { zipStream } from './zip-stream.js';
import { errors } from '../error-factories.js';

export const EXPORT_FORMATS = ['json', 'csv', 'xlsx'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export const CONTENT_TYPES = {
  csv: 'text/csv; charset=utf-8',
  zip: 'application/zip',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
} as const;

/** A file to send: its content type, its `Content-Disposition`, and its bytes as a stream. */
export interface ExportFile {
  readonly contentType: string;
  readonly disposition: string;
  readonly body: Readable;
}

const tableCsv = (table: Table) =>
  csvLines(
    table.columns.map((c) => c.name),
    table.rows,
  );

/** The tables to export: all, or the one named by `table` (404 when the dataset has none of that name). */
function pickTables(dataset: Dataset, table: string | undefined): [string, Table][] {
  if (table === undefined) return Object.entries(dataset.tables);
  const found = dataset.tables[table];
  if (!found) {
    const names = Object.keys(dataset.tables);
    throw errors.tableNotFound(dataset.key, table, names);
  }
  return [[table, found]];
}

/** A table name as a zip entry name that cannot reach outside the folder it is extracted into. */
const entryName = (table: string) => table.replace(/[/\\]/g, '_').replace(/^\.+/, '_');

/**
 * A dataset as files the ETL reads back: CSV (one `<table>.csv`, or a zip of one per table) or XLSX
 * (one sheet per table, named like it). Produced while it is sent, never whole in memory.
 */
export function exportDataset(dataset: Dataset, format: 'csv' | 'xlsx', table?: string): ExportFile {
  const tables = pickTables(dataset, table);
  const base = table ?? dataset.key;
  if (format === 'xlsx') {
    const names = sheetNames(tables.map(([name]) => name));
    const sheets = tables.map(([, t], i) => ({ name: names[i]!, columns: t.columns, rows: t.rows }));
    return { contentType: CONTENT_TYPES.xlsx, disposition: attachment(`${base}.xlsx`), body: Readable.from(xlsxStream(sheets)) };
  }
  if (table !== undefined) {
    return { contentType: CONTENT_TYPES.csv, disposition: attachment(`${table}.csv`), body: Readable.from(batched(tableCsv(tables[0]![1]))) };
  }
  const entries = tables.map(([name, t]) => ({ name: `${entryName(name)}.csv`, text: tableCsv(t) }));
  return { contentType: CONTENT_TYPES.zip, disposition: attachment(`${base}.zip`), body: Readable.from(zipStream(entries)) };
}
