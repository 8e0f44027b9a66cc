/**
 * A schedule's cron written from plain choices ("every weekday at 05:00") so a planner never has to
 * know cron's five fields, and read back into words for the list. The raw field stays for anything
 * else; the server checks every cron (docs/api/schedules.md), so nothing here has to be exhaustive.
 */

export type CronKind = 'weekdays' | 'daily' | 'hourly' | 'minutes' | 'raw';

/** Every choice's value at once: switching between choices keeps what was typed in each. */
export interface CronDraft {
  readonly kind: CronKind;
  /** `HH:MM` (an `<input type="time">`), for weekdays and daily. */
  readonly time: string;
  /** Minute past each hour, for hourly. */
  readonly minute: string;
  /** Minutes between ticks, for every N minutes. */
  readonly every: string;
  /** The cron as typed, for raw. */
  readonly raw: string;
}

export const DEFAULT_CRON_DRAFT: CronDraft = { kind: 'weekdays', time: '05:00', minute: '0', every: '15', raw: '0 5 * * 1-5' };

export const CRON_KIND_LABELS: Readonly<Record<CronKind, string>> = {
  weekdays: 'Every weekday (Monday to Friday) at',
  daily: 'Every day at',
  hourly: 'Every hour at minute',
  minutes: 'Every N minutes',
  raw: 'Advanced: a cron expression',
};

/** The cron of a draft, or what to write instead. */
export type Composed = { readonly cron: string } | { readonly problem: string };

const TIME = /^([01]?\d|2[0-3]):([0-5]\d)$/;

function wholeIn(text: string, min: number, max: number): number | null {
  if (!/^\s*\d+\s*$/.test(text)) return null;
  const n = Number(text);
  return n >= min && n <= max ? n : null;
}

export function composeCron(draft: CronDraft): Composed {
  switch (draft.kind) {
    case 'weekdays':
    case 'daily': {
      const match = TIME.exec(draft.time.trim());
      if (!match) return { problem: 'Enter a time of day as hours and minutes, such as 05:00.' };
      const days = draft.kind === 'weekdays' ? '1-5' : '*';
      return { cron: `${Number(match[2])} ${Number(match[1])} * * ${days}` };
    }
    case 'hourly': {
      const minute = wholeIn(draft.minute, 0, 59);
      return minute === null ? { problem: 'Enter the minute past each hour: a whole number from 0 to 59.' } : { cron: `${minute} * * * *` };
    }
    case 'minutes': {
      const every = wholeIn(draft.every, 1, 59);
      if (every === null) return { problem: 'Enter the minutes between runs: a whole number from 1 to 59 (for hours, pick “every hour” or a time).' };
      return { cron: every === 1 ? '* * * * *' : `*/${every} * * * *` };
    }
    case 'raw': {
      const cron = draft.raw.trim().replace(/\s+/g, ' ');
      return cron === '' ? { problem: 'Enter a cron expression, such as 0 5 * * 1-5 (05:00 every weekday).' } : { cron };
    }
  }
}

const pad = (n: number) => String(n).padStart(2, '0');
const clock = (hour: string, minute: string) => `${pad(Number(hour))}:${pad(Number(minute))}`;
const NUMBER = '(\\d{1,2})';

/** The cron in the words the form offers, or null for any other cron (shown as it is). */
export function describeCron(cron: string): string | null {
  const text = cron.trim().replace(/\s+/g, ' ');
  let m: RegExpExecArray | null;
  if ((m = new RegExp(`^${NUMBER} ${NUMBER} \\* \\* (1-5|mon-fri)$`, 'i').exec(text))) return `every weekday at ${clock(m[2]!, m[1]!)}`;
  if ((m = new RegExp(`^${NUMBER} ${NUMBER} \\* \\* \\*$`).exec(text))) return `every day at ${clock(m[2]!, m[1]!)}`;
  if ((m = new RegExp(`^${NUMBER} \\* \\* \\* \\*$`).exec(text))) return `every hour at minute ${Number(m[1])}`;
  if (text === '* * * * *') return 'every minute';
  if ((m = /^\*\/(\d{1,2}) \* \* \* \*$/.exec(text))) return `every ${Number(m[1])} minutes`;
  if (text === '* * * * * *') return 'every second';
  if ((m = /^\*\/(\d{1,2}) \* \* \* \* \*$/.exec(text))) return `every ${Number(m[1])} seconds`;
  return null;
}
