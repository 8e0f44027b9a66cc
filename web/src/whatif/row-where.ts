import type { Column, SchemaGroup } from '../api/types.ts';
import type { Cell, Where } from './edits.ts';

/** Each table's primary-key columns, from the session's schemas (`GET .../schemas`). */
export function primaryKeys(groups: readonly SchemaGroup[] | undefined): Map<string, string[]> {
  const keys = new Map<string, string[]>();
  for (const group of groups ?? []) {
    for (const table of group.tables) keys.set(table.name, table.columns.filter((c) => c.key === 'primary').map((c) => c.name));
  }
  return keys;
}

/**
 * The where that names one row: its primary key when the table declares one, else every column's
 * value (then identical rows are edited together, and the edit's row count says so).
 */
export function whereOfRow(columns: readonly Column[], row: readonly unknown[], keyColumns: readonly string[]): Where {
  const named = keyColumns.length > 0 ? keyColumns : columns.map((c) => c.name);
  const where: Where = {};
  for (const name of named) {
    const at = columns.findIndex((c) => c.name === name);
    if (at >= 0) where[name] = asCell(row[at]);
  }
  return where;
}

const asCell = (value: unknown): Cell =>
  value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' ? value : JSON.stringify(value);

export type Parsed = { ok: true; value: Cell } | { ok: false; error: string };

/**
 * Text typed into a cell as the column's type: numbers must read as numbers (and whole ones for
 * integers), booleans as true/false; an empty text is null. Range and key checks are the server's.
 */
export function parseCell(column: Column, text: string): Parsed {
  const trimmed = text.trim();
  if (trimmed === '') return { ok: true, value: null };
  switch (column.type) {
    case 'integer':
    case 'float': {
      const n = Number(trimmed);
      if (!Number.isFinite(n)) return { ok: false, error: `${column.name} takes a number, not “${trimmed}”` };
      if (column.type === 'integer' && !Number.isInteger(n)) return { ok: false, error: `${column.name} takes a whole number` };
      return { ok: true, value: n };
    }
    case 'boolean':
      if (/^(true|false)$/i.test(trimmed)) return { ok: true, value: trimmed.toLowerCase() === 'true' };
      return { ok: false, error: `${column.name} takes true or false` };
    default:
      return { ok: true, value: text };
  }
}

export const isNumeric = (column: Column) => column.type === 'integer' || column.type === 'float';
