import { cellText } from '../csv.ts';

/**
 * The rows of a table that a row reference names (a violation's `{ table, key }`, as text in the URL):
 * the row whose primary-key column holds the key, or, in a table without a single primary key, the row
 * at that 0-based position (docs/api/explanations.md).
 */
export function focusedRows(columns: readonly { name: string }[], rows: unknown[][], keyColumns: readonly string[], key: string): unknown[][] {
  if (keyColumns.length === 1) {
    const at = columns.findIndex((c) => c.name === keyColumns[0]);
    return at < 0 ? [] : rows.filter((r) => cellText(r[at]) === key);
  }
  const position = Number(key);
  const row = Number.isInteger(position) ? rows[position] : undefined;
  return row ? [row] : [];
}
