import { Cron } from 'croner';

/**
 * Cron expressions and time zones, by croner (docs/architecture.md says why): 5 fields, or 6 with
 * seconds first; ticks follow the zone's wall clock. Across a daylight-saving change croner follows
 * Vixie cron: a fixed-time tick (one value in each of second, minute and hour) that falls in the
 * spring-forward gap runs at the first valid time after it, and one in the repeated hour runs once,
 * at its first occurrence; an interval tick (a wildcard, step, range or list there) runs at both
 * occurrences of a repeated time and skips times that do not exist.
 */
export interface CronSchedule {
  readonly cron: string;
  readonly timezone: string;
}

/** Either the parsed expression, or what is wrong with it in words a form can show. */
export type CronCheck = { readonly ok: true; readonly cron: Cron } | { readonly ok: false; readonly field: 'cron' | 'timezone'; readonly problem: string };

/** Whether the runtime knows `timezone` as an IANA name (Intl refuses unknown ones). */
export function isKnownTimezone(timezone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: timezone });
    return true;
  } catch {
    return false;
  }
}

/** Parses without scheduling anything: croner starts no timer without a callback. */
export function checkCron({ cron, timezone }: CronSchedule): CronCheck {
  if (!isKnownTimezone(timezone)) return { ok: false, field: 'timezone', problem: `'${timezone}' is not an IANA time zone name` };
  try {
    return { ok: true, cron: new Cron(cron.trim(), { mode: '5-or-6-parts', timezone }) };
  } catch (err) {
    // croner's own words name the field ("Invalid value for minute: 61"); its prefix says nothing.
    const message = (err as Error).message.replace(/^CronPattern:\s*/, '');
    return { ok: false, field: 'cron', problem: message };
  }
}

/** Like `checkCron` for a stored schedule, which was checked when it was written. */
export function parsedCron(schedule: CronSchedule): Cron {
  const check = checkCron(schedule);
  if (!check.ok) throw new Error(`stored schedule has an unusable ${check.field}: ${check.problem}`);
  return check.cron;
}

/** The first `count` ticks strictly after `after`. */
export function nextTicks(cron: Cron, after: Date, count: number): Date[] {
  return cron.nextRuns(count, after);
}

/**
 * The ticks in (after, upto], oldest first, at most `limit` of them and the number beyond (a long
 * downtime of a per-second schedule must not be enumerated whole).
 */
export function ticksBetween(cron: Cron, after: Date, upto: Date, limit: number): { ticks: Date[]; more: boolean } {
  const ticks: Date[] = [];
  let cursor = after;
  for (;;) {
    const next = cron.nextRun(cursor);
    if (next === null || next.getTime() > upto.getTime()) return { ticks, more: false };
    if (ticks.length === limit) return { ticks, more: true };
    ticks.push(next);
    cursor = next;
  }
}

/**
 * The latest `count` ticks in (after, upto], oldest first (catch-up `latest` and `all`): walked back
 * from `upto`, so a long downtime is not enumerated from its start to reach its end.
 */
export function latestTicksBetween(cron: Cron, after: Date, upto: Date, count: number): Date[] {
  return cron
    .previousRuns(count, new Date(upto.getTime() + 1))
    .filter((d) => d.getTime() > after.getTime() && d.getTime() <= upto.getTime())
    .reverse();
}

/** The latest tick in (after, upto], or undefined (for catch-up `latest`). */
export function latestTickBetween(cron: Cron, after: Date, upto: Date): Date | undefined {
  return latestTicksBetween(cron, after, upto, 1)[0];
}
