import { Readable } from 'node:stream';
import type { Cell, ColumnType } from '../domain/dataset-model.js';
import { batched } from './chunks.js';
import { attachment } from './content-disposition.js';
import { csvLines } from './csv.js';
import { CONTENT_TYPES, type ExportFile } from './dataset-export.js';
import { sheetNames, xlsxStream } from './xlsx.js';

/** A result as a table: its first table view's columns and every row, in the view's order. */
export interface ResultRows {
  readonly columns: readonly { readonly name: string; readonly type: ColumnType }[];
  readonly rows: Iterable<readonly Cell[]>;
}

/** A scenario's result table as CSV, or as a one-sheet workbook named after the scenario's tag. */
export function exportResultTable(table: ResultRows, tag: string, format: 'csv' | 'xlsx'): ExportFile {
  if (format === 'xlsx') {
    const [name] = sheetNames([tag]);
    return {
      contentType: CONTENT_TYPES.xlsx,
      disposition: attachment(`${tag}.xlsx`),
      body: Readable.from(xlsxStream([{ name: name!, columns: table.columns, rows: table.rows }])),
    };
  }
  return {
    contentType: CONTENT_TYPES.csv,
    disposition: attachment(`${tag}.csv`),
    body: Readable.from(batched(csvLines(table.columns.map((c) => c.name), table.rows))),
  };
}
