import { formatExcelDate } from './datetime.js';
import { BadCell, type RawCell } from './readers/reader.js';

const MAX_SHOWN = 50;

/** A value as quoted in a message: text in quotes, cut to about 50 characters so messages stay short. */
export function showValue(value: RawCell): string {
  if (value === null || value === undefined) return 'an empty value';
  if (value instanceof BadCell) return value.problem;
  if (value instanceof Date) return formatExcelDate(value) ?? 'an invalid date';
  if (typeof value !== 'string') return String(value);
  return JSON.stringify(value.length > MAX_SHOWN ? `${value.slice(0, MAX_SHOWN - 1)}…` : value);
}
