/** IANA time zones for the schedule form, and tick times written in the zone a schedule runs in. */

/** The browser's own zone: a planner's default is where they sit. */
export function browserTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}

/** The zones the browser knows, UTC among them (the picker suggests them; the server decides what it takes). */
export function timeZoneNames(): string[] {
  const supported = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return supported.includes('UTC') ? [...supported] : ['UTC', ...supported];
}

/**
 * A tick (ISO, UTC) as the wall clock of `timeZone` reads it: "Mon, 7 Dec 2026, 05:00 CET". Seconds
 * only when asked (a cron with seconds). A zone the browser does not know falls back to UTC's text.
 */
export function formatInZone(iso: string, timeZone: string, withSeconds = false): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const options: Intl.DateTimeFormatOptions = {
    weekday: 'short',
    year: 'numeric',
    month: 'short',
    day: 'numeric',
    hour: '2-digit',
    minute: '2-digit',
    ...(withSeconds ? { second: '2-digit' } : {}),
    hourCycle: 'h23',
    timeZoneName: 'short',
  };
  try {
    return new Intl.DateTimeFormat(undefined, { ...options, timeZone }).format(date);
  } catch {
    return new Intl.DateTimeFormat(undefined, { ...options, timeZone: 'UTC' }).format(date);
  }
}

/** The calendar day `iso` falls on in `timeZone` (for comparing days, not for showing). */
function dayIn(iso: string, timeZone: string): string {
  try {
    return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(iso));
  } catch {
    return iso.slice(0, 10);
  }
}

/**
 * A time that follows `since` (a run's start or end after its due time): its clock time only when it
 * falls on the same day in `timeZone` ("05:13:54"), else written in full.
 */
export function formatAfter(iso: string, since: string, timeZone: string): string {
  if (dayIn(iso, timeZone) !== dayIn(since, timeZone)) return formatInZone(iso, timeZone, true);
  const options: Intl.DateTimeFormatOptions = { hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23' };
  try {
    return new Intl.DateTimeFormat(undefined, { ...options, timeZone }).format(new Date(iso));
  } catch {
    return new Intl.DateTimeFormat(undefined, { ...options, timeZone: 'UTC' }).format(new Date(iso));
  }
}

/** Whether any of the ticks falls off a whole minute (then each is shown with its seconds). */
export const hasSeconds = (ticks: readonly string[]): boolean => ticks.some((t) => new Date(t).getUTCSeconds() !== 0);
