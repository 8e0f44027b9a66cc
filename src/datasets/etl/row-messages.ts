import type { MessageLog } from './messages.js';
import type { RowLocation } from './readers/reader.js';
import type { TableWhere } from './table-plan.js';

/** Logs an error about one row (capped per kind and column), with the row's detail before the text. */
export function reportRow(log: MessageLog, kind: string, label: string, where: TableWhere, column: string | undefined, at: RowLocation, text: string): void {
  const message = at.detail ? `${at.detail}: ${text}` : text;
  log.addCapped(kind, label, { severity: 'error', ...where, ...(column === undefined ? {} : { column }), row: at.row, message });
}
