import { BadCell, type RawCell } from './reader.js';

const UNSUPPORTED = new BadCell('an unsupported kind of Excel cell');

/**
 * An exceljs cell value as a raw cell: numbers, strings, booleans and dates as they are; rich text as its
 * plain text; a formula as its cached result; a hyperlink as its text; an Excel error (#N/A, #DIV/0!) as
 * a `BadCell`, so it is reported rather than read as text or silently emptied.
 */
export function xlsxCell(value: unknown): RawCell {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  if (value instanceof Date) return value;
  if (typeof value !== 'object') return UNSUPPORTED;
  if ('richText' in value) return richText(value.richText);
  if ('formula' in value || 'sharedFormula' in value) return 'result' in value ? xlsxCell(value.result) : null;
  if ('hyperlink' in value) return 'text' in value ? xlsxCell(value.text) : String(value.hyperlink);
  if ('error' in value) return new BadCell(`the Excel error ${String(value.error)}`);
  return UNSUPPORTED;
}

function richText(runs: unknown): string {
  if (!Array.isArray(runs)) return '';
  return runs.map((run: unknown) => (typeof run === 'object' && run !== null && 'text' in run ? String(run.text) : '')).join('');
}
