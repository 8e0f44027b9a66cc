/**
 * The one CSV writer: the server's exports and the dashboard's downloads (through `scenarist/client`,
 * so this file imports nothing). CSV as the ETL reads it back: comma-separated, `"`-quoted when a field
 * holds a comma, quote, line break or outer spaces, an empty field for null, numbers in JavaScript's
 * shortest round-trip form, lines ended by CRLF.
 *
 * Formulas (CSV injection, as OWASP describes it): a spreadsheet runs a text cell that begins with
 * `=`, `+`, `-`, `@`, a tab or a carriage return as a formula (`=HYPERLINK(...)` becomes a live link).
 * Such a text is written with a `'` before it, quoted, which spreadsheets show as plain text; numbers
 * are written as they are (a negative number stays a number). The ETL's CSV reader takes that one `'`
 * off again (`csvUnguarded`), so an export uploaded back holds the same values. A text that already
 * begins with quotes before such a character gets one more, so that taking one off is always right.
 */

/** A cell as written: a dataset cell, or nothing (an empty field). */
export type CsvValue = string | number | boolean | null | undefined;

/** Text a spreadsheet would read as a formula, after any quotes a guard (or a person) put before it. */
const FORMULA_START = /^'*[=+\-@\t\r]/;
const APOSTROPHE = 0x27;

/** The text as a spreadsheet shows it as text: `'` before a formula's first character, else unchanged. */
export const csvGuarded = (text: string): string => (FORMULA_START.test(text) ? `'${text}` : text);

/** What the ETL reads from a CSV field: the guard `csvGuarded` added taken off, anything else unchanged. */
export const csvUnguarded = (field: string): string => (field.charCodeAt(0) === APOSTROPHE && FORMULA_START.test(field) ? field.slice(1) : field);

export function csvField(cell: CsvValue): string {
  if (cell === null || cell === undefined) return '';
  if (typeof cell !== 'string') return String(cell);
  const text = csvGuarded(cell);
  return text !== cell || /[",\r\n]|^\s|\s$/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

export const csvLine = (cells: readonly CsvValue[]) => `${cells.map(csvField).join(',')}\r\n`;

/** The header line, then one line per row, produced as they are read (never the whole file at once). */
export function* csvLines(columns: readonly string[], rows: Iterable<readonly CsvValue[]>): Generator<string> {
  yield csvLine(columns);
  for (const row of rows) yield csvLine(row);
}

/** A whole CSV text, for tables small enough to hold (a download built in the browser). */
export const toCsv = (columns: readonly string[], rows: Iterable<readonly CsvValue[]>): string => [...csvLines(columns, rows)].join('');
