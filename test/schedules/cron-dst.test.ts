import { describe, expect, it } from 'vitest';
import { checkCron, latestTickBetween, latestTicksBetween, nextTicks, ticksBetween } from '../../src/schedules/cron.js';

/** Wall-clock hour and minute of an instant in a zone. */
function wall(date: Date, timezone: string): { day: string; hour: number; minute: number; weekday: string } {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat('en-GB', { timeZone: timezone, year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', weekday: 'short', hourCycle: 'h23' })
      .formatToParts(date)
      .map((p) => [p.type, p.value]),
  );
  return { day: `${parts.year}-${parts.month}-${parts.day}`, hour: Number(parts.hour), minute: Number(parts.minute), weekday: parts.weekday! };
}

const parse = (cron: string, timezone: string) => {
  const check = checkCron({ cron, timezone });
  if (!check.ok) throw new Error(check.problem);
  return check.cron;
};

// Two zones whose daylight-saving changes differ in date, direction and hour.
/** Whether the zone's clock jumps forward over 02:xx on this day (its offset grows across the day). */
function springForward(day: string, timezone: string): boolean {
  const offset = (iso: string) => {
    const d = new Date(iso);
    const w = wall(d, timezone);
    return Date.UTC(Number(w.day.slice(0, 4)), Number(w.day.slice(5, 7)) - 1, Number(w.day.slice(8, 10)), w.hour, w.minute) - d.getTime();
  };
  return offset(`${day}T12:00:00Z`) > offset(`${day}T00:00:00Z`);
}

const ZONES = ['Europe/Amsterdam', 'America/New_York'] as const;
const DAY_MS = 86_400_000;

describe.each(ZONES)('tick computation across daylight-saving changes in %s', (timezone) => {
  it('a weekday 05:00 schedule ticks once a weekday at 05:00 wall time, for three years of starting points', () => {
    const cron = parse('0 5 * * 1-5', timezone);
    for (let start = Date.UTC(2024, 0, 1); start < Date.UTC(2027, 0, 1); start += 3 * DAY_MS + 3_600_000) {
      const ticks = nextTicks(cron, new Date(start), 10);
      const days = new Set<string>();
      for (const tick of ticks) {
        const w = wall(tick, timezone);
        expect([w.hour, w.minute]).toEqual([5, 0]);
        expect(['Sat', 'Sun']).not.toContain(w.weekday);
        days.add(w.day);
        expect(tick.getTime()).toBeGreaterThan(start);
      }
      // Never twice a day, whatever the offset did.
      expect(days.size).toBe(ticks.length);
      for (let i = 1; i < ticks.length; i++) expect(ticks[i]!.getTime()).toBeGreaterThan(ticks[i - 1]!.getTime());
    }
  });

  it('a fixed-time tick in the spring gap runs once, right after it; in the repeated hour once, at its first pass', () => {
    // 02:30 does not exist on spring-forward days and exists twice on fall-back days in both zones.
    const cron = parse('30 2 * * *', timezone);
    const ticks = nextTicks(cron, new Date(Date.UTC(2024, 0, 1)), 800);
    const perDay = new Map<string, Date[]>();
    for (const tick of ticks) {
      const { day } = wall(tick, timezone);
      perDay.set(day, [...(perDay.get(day) ?? []), tick]);
    }
    for (const [day, dayTicks] of perDay) {
      expect(dayTicks, day).toHaveLength(1);
      const w = wall(dayTicks[0]!, timezone);
      // 02:30, or 03:00 (the first valid time after the gap) where the clock skipped 02:xx.
      expect([`${w.hour}:${w.minute}`, day]).toEqual([springForward(day, timezone) ? '3:0' : '2:30', day]);
    }
    // 800 consecutive days: none missed.
    expect(perDay.size).toBe(800);
  });

  it('an interval schedule never repeats a tick and counts the same through ticksBetween and nextTicks', () => {
    const cron = parse('*/20 * * * *', timezone);
    for (const [month, day] of [[2, 10], [2, 31], [9, 27], [10, 3]] as const) {
      const from = new Date(Date.UTC(2024, month, day) - DAY_MS);
      const upto = new Date(from.getTime() + 3 * DAY_MS);
      const { ticks, more } = ticksBetween(cron, from, upto, 10_000);
      expect(more).toBe(false);
      expect(new Set(ticks.map((t) => t.getTime())).size).toBe(ticks.length);
      expect(nextTicks(cron, from, ticks.length).map((t) => t.getTime())).toEqual(ticks.map((t) => t.getTime()));
      for (const tick of ticks) expect(wall(tick, timezone).minute % 20).toBe(0);
      // Real time between ticks is 20 minutes, or 80 minutes across a spring gap (an hour of wall time does not exist).
      for (let i = 1; i < ticks.length; i++) expect([20, 80]).toContain((ticks[i]!.getTime() - ticks[i - 1]!.getTime()) / 60_000);
      expect(latestTickBetween(cron, from, upto)?.getTime()).toBe(ticks.at(-1)!.getTime());
      // Walking back (catch-up's bound) finds the same ticks as walking forward, across the change too.
      const back = latestTicksBetween(cron, from, upto, ticks.length + 1).map((t) => t.getTime());
      expect(back).toEqual(ticks.map((t) => t.getTime()));
    }
  });
});

describe('cron and time zone checks', () => {
  it('takes 5 fields and 6 with seconds; refuses others with words naming the field', () => {
    expect(checkCron({ cron: '*/2 * * * * *', timezone: 'UTC' }).ok).toBe(true);
    expect(checkCron({ cron: '0 5 * * MON-FRI', timezone: 'Europe/Amsterdam' }).ok).toBe(true);
    const bad = checkCron({ cron: '61 * * * *', timezone: 'UTC' });
    expect(bad).toMatchObject({ ok: false, field: 'cron' });
    expect(!bad.ok && bad.problem).toMatch(/minute/);
    expect(checkCron({ cron: '* * * * * * *', timezone: 'UTC' })).toMatchObject({ ok: false, field: 'cron' });
    expect(checkCron({ cron: '* * * *', timezone: 'UTC' })).toMatchObject({ ok: false, field: 'cron' });
    expect(checkCron({ cron: '* * * * *', timezone: 'Mars/Olympus' })).toMatchObject({ ok: false, field: 'timezone' });
  });

  it('a 2-second schedule ticks every 2 seconds', () => {
    const cron = parse('*/2 * * * * *', 'UTC');
    const { ticks } = ticksBetween(cron, new Date('2024-01-01T00:00:00.000Z'), new Date('2024-01-01T00:00:20.000Z'), 100);
    expect(ticks.map((t) => t.toISOString().slice(17, 19))).toEqual(['02', '04', '06', '08', '10', '12', '14', '16', '18', '20']);
  });
});
