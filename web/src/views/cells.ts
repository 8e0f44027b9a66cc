import type { Cell, TableColumn } from '../api/views.ts';
import { formatValue } from './number-format.ts';

/** One table cell as text: numbers by the column's format in the browser's locale, times in local time. */
export function formatCell(value: Cell, column: Pick<TableColumn, 'type' | 'format'>): string {
  if (value === null) return '—';
  if (typeof value === 'number') return formatValue(value, column.format);
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (column.type === 'datetime') {
    const d = new Date(value);
    return Number.isNaN(d.getTime()) ? value : d.toLocaleString();
  }
  return value;
}

export const isNumeric = (column: Pick<TableColumn, 'type'>) => column.type === 'integer' || column.type === 'float';

/** "Name (unit)" for a header. */
export const columnHeading = (column: Pick<TableColumn, 'label' | 'unit'>) => (column.unit ? `${column.label} (${column.unit})` : column.label);
