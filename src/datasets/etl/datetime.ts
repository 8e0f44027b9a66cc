/**
 * ISO 8601 date and date-time text: `YYYY-MM-DD`, or that with `T` (or a space) and `HH:MM[:SS[.fraction]]`,
 * optionally followed by `Z` or an offset (`+HH`, `+HHMM`, `+HH:MM`).
 */
const ISO = /^(\d{4})-(\d{2})-(\d{2})(?:[Tt ](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?([Zz]|[+-]\d{2}(?::?\d{2})?)?)?$/;

/** The output form itself; its fields sit at fixed positions. */
const CANONICAL = /^\d{4}-\d{2}-\d{2}(?:T\d{2}:\d{2}:\d{2}(?:\.\d{1,9})?(?:Z|[+-]\d{2}:\d{2})?)?$/;

/**
 * The canonical form of an ISO date or date-time, or `undefined` when `text` is not one or names an
 * impossible date (2023-02-29, 24:10). Dates stay dates (`2024-01-31`); date-times become
 * `YYYY-MM-DDTHH:MM:SS[.fraction][Z|±HH:MM]`, keeping the zone as written: a time without a zone is a
 * local wall-clock time and is not shifted to UTC.
 */
export function parseIsoDateTime(text: string): string | undefined {
  // Most values are already canonical: check them in place, without the allocations of a regex match.
  if (CANONICAL.test(text)) return canonicalInRange(text) ? text : undefined;
  const m = ISO.exec(text);
  if (!m) return undefined;
  const [, year, month, day, hour, minute, second = '00', fraction = '', zone] = m;
  if (!validDate(Number(year), Number(month), Number(day))) return undefined;
  const date = `${year}-${month}-${day}`;
  if (hour === undefined || minute === undefined) return date;
  if (Number(hour) > 23 || Number(minute) > 59 || Number(second) > 59) return undefined;
  const offset = zone === undefined ? '' : canonicalZone(zone);
  if (offset === undefined) return undefined;
  return `${date}T${hour}:${minute}:${second}${fraction}${offset}`;
}

function canonicalInRange(text: string): boolean {
  const year = twoDigits(text, 0) * 100 + twoDigits(text, 2);
  if (!validDate(year, twoDigits(text, 5), twoDigits(text, 8))) return false;
  if (text.length === 10) return true;
  if (twoDigits(text, 11) > 23 || twoDigits(text, 14) > 59 || twoDigits(text, 17) > 59) return false;
  const zone = text.length - 6;
  const hasOffset = text[zone] === '+' || text[zone] === '-';
  return !hasOffset || (twoDigits(text, zone + 1) <= 23 && twoDigits(text, zone + 4) <= 59);
}

/** The number written by the two digits at `at` (the caller's regex guarantees digits). */
function twoDigits(text: string, at: number): number {
  return (text.charCodeAt(at) - 48) * 10 + text.charCodeAt(at + 1) - 48;
}

function validDate(year: number, month: number, day: number): boolean {
  if (month < 1 || month > 12 || day < 1) return false;
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  const days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]!;
  return day <= days;
}

function canonicalZone(zone: string): string | undefined {
  if (zone === 'Z' || zone === 'z') return 'Z';
  const digits = zone.slice(1).replace(':', '');
  const hours = digits.slice(0, 2);
  const minutes = digits.slice(2) || '00';
  if (Number(hours) > 23 || Number(minutes) > 59) return undefined;
  return `${zone[0]}${hours}:${minutes}`;
}

/**
 * An Excel date cell as ISO text. Excel stores wall-clock times without a zone (the XLSX reader hands them over as
 * a Date at that wall-clock time in UTC), so the result carries no zone: `2024-01-31` for a date without a
 * time of day, `2024-01-31T08:30:00` otherwise. `undefined` for an invalid Date.
 */
export function formatExcelDate(date: Date): string | undefined {
  const time = date.getTime();
  if (Number.isNaN(time)) return undefined;
  const iso = date.toISOString();
  if (time % 86_400_000 === 0) return iso.slice(0, 10);
  return time % 1000 === 0 ? iso.slice(0, 19) : iso.slice(0, 23);
}
