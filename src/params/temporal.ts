/**
 * The strict text forms behind `time` and `interval` values. Hand-written rather than `Date.parse`,
 * which accepts far more than ISO 8601 (and differently across engines), rolls 2026-02-30 over into
 * March, and maps years 0..99 onto 1900..1999.
 */

/** `HH:MM` or `HH:MM:SS` on a 24-hour clock: two digits each, so `7:00`, `24:00` and `07:60` fail. */
const TIME_OF_DAY = /^(?:[01]\d|2[0-3]):[0-5]\d(?::[0-5]\d)?$/;

export function isTimeOfDay(text: string): boolean {
  return TIME_OF_DAY.test(text);
}

/** `YYYY-MM-DD`. */
const DATE = /^(?<year>\d{4})-(?<month>\d{2})-(?<day>\d{2})$/;
/**
 * `YYYY-MM-DDTHH:MM[:SS[.f...]][Z|±HH:MM]`: up to nine fraction digits (nanoseconds), upper-case `T`
 * and `Z` only. Ranges (month, day of month, hour...) are checked after matching.
 */
const DATE_TIME =
  /^(?<year>\d{4})-(?<month>\d{2})-(?<day>\d{2})T(?<hour>\d{2}):(?<minute>\d{2})(?::(?<second>\d{2})(?:\.(?<fraction>\d{1,9}))?)?(?:Z|(?<sign>[+-])(?<offsetHour>\d{2}):(?<offsetMinute>\d{2}))?$/;

/** A point in time: whole seconds since 1970-01-01T00:00Z plus nanoseconds, exact for every form above. */
export interface Instant {
  readonly seconds: number;
  readonly nanos: number;
}

/**
 * The instant an ISO 8601 date or date-time denotes, or undefined when the text is not one of the
 * accepted forms or names no real calendar date/time. A date counts as its midnight UTC; a date-time
 * without an offset counts as UTC (the service has no time zone of its own to assume).
 */
export function parseInstant(text: string): Instant | undefined {
  const groups = (DATE.exec(text) ?? DATE_TIME.exec(text))?.groups;
  if (!groups) return undefined;
  // Absent parts (time of a date, seconds, offset) are zero; every present part is all digits.
  const part = (name: string): number => Number(groups[name] ?? 0);
  const [year, month, day, hour, minute, second] = ['year', 'month', 'day', 'hour', 'minute', 'second'].map(part) as [
    number, number, number, number, number, number,
  ];
  const [offsetHour, offsetMinute] = [part('offsetHour'), part('offsetMinute')];
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  // No 24:00 and no leap second 60: neither is a form clients are expected to send.
  if (hour > 23 || minute > 59 || second > 59 || offsetHour > 23 || offsetMinute > 59) return undefined;
  const offset = (groups.sign === '-' ? -1 : 1) * (offsetHour * 3600 + offsetMinute * 60);
  const seconds = daysFromCivil(year, month, day) * 86_400 + hour * 3600 + minute * 60 + second - offset;
  const nanos = Number((groups.fraction ?? '').padEnd(9, '0'));
  return { seconds, nanos };
}

/** Negative when `a` is before `b`, zero when they are the same instant, positive when after. */
export function compareInstants(a: Instant, b: Instant): number {
  return a.seconds !== b.seconds ? a.seconds - b.seconds : a.nanos - b.nanos;
}

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return isLeapYear(year) ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

/** Days from 1970-01-01 to a proleptic Gregorian date (H. Hinnant's `days_from_civil`), integers only. */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146_097 + dayOfEra - 719_468;
}
