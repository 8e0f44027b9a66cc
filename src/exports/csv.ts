/**
 * The one CSV writer: the server's exports and the dashboard's downloads (through `scenarist/client`,
 * so this file imports nothing). CSV as the ETL reads it back: comma-separated, `"`-quoted when a field
 * holds a comma, quote, line break or outer spaces, an empty field for null, numbers in JavaScript's
 * shortest round-trip form, lines ended by CRLF.
 */

/** A cell as written: a dataset cell, or nothing (an empty field). */
export type CsvValue = string | number | boolean | null | undefined;

export function csvField(cell: CsvValue): string {
  if (cell === null || cell === undefined) return '';
  const text = typeof cell === 'string' ? cell : String(cell);
  return /[",\r\n]|^\s|\s$/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export const csvLine = (cells: readonly CsvValue[]) => `${cells.map(csvField).join(',')}\r\n`;

/** The header line, then one line per row, produced as they are read (never the whole file at once). */
export function* csvLines(columns: readonly string[], rows: Iterable<readonly CsvValue[]>): Generator<string> {
  yield csvLine(columns);
  for (const row of rows) yield csvLine(row);
}

/** A whole CSV text, for tables small enough to hold (a download built in the browser). */
export const toCsv = (columns: readonly string[], rows: Iterable<readonly CsvValue[]>): string => [...csvLines(columns, rows)].join('');
