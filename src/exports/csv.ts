import type { Cell } from '../datasets/model.js';

/**
 * CSV as the ETL reads it back: comma-separated, `"`-quoted when a field holds a comma, quote, line
 * break or outer spaces, an empty field for null, numbers in JavaScript's shortest round-trip form.
 */
export function csvField(cell: Cell): string {
  if (cell === null) return '';
  const text = typeof cell === 'string' ? cell : String(cell);
  return /[",\r\n]|^\s|\s$/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export const csvLine = (cells: readonly Cell[]) => `${cells.map(csvField).join(',')}\r\n`;

/** The header line, then one line per row, produced as they are read (never the whole file at once). */
export function* csvLines(columns: readonly string[], rows: Iterable<readonly Cell[]>): Generator<string> {
  yield csvLine(columns);
  for (const row of rows) yield csvLine(row);
}
