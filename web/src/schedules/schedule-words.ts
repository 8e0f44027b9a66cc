import type { Schedule, Tick, TickAlert, TickStatus } from '../api/schedules.ts';
import { formatDelta, formatNumber, formatRelative } from '../format.ts';
import { describeCron } from './cron-choices.ts';

/** A schedule's parts in a planner's words: when, what, the alerts and each run's outcome. */

/** Names for the ids a schedule holds (a scenario's tag, an experiment's name), when known. */
export interface ScheduleNames {
  readonly scenarios?: ReadonlyMap<string, string>;
  readonly experiments?: ReadonlyMap<string, string>;
}

/** "every weekday at 05:00 (Europe/Amsterdam)", or the cron as written for one the form does not offer. */
export function whenText(s: Pick<Schedule, 'cron' | 'timezone'>): string {
  return `${describeCron(s.cron) ?? `cron ${s.cron}`} (${s.timezone})`;
}

export function actionText(action: Schedule['action'], names: ScheduleNames): string {
  switch (action.kind) {
    case 'replan':
      return 're-plan the published plan';
    case 'rerun':
      return `rerun the scenario ${names.scenarios?.get(action.scenario) ?? action.scenario}`;
    case 'experiment':
      return `rerun the experiment ${names.experiments?.get(action.experiment) ?? action.experiment}`;
  }
}

/** The thresholds set, in words ("Travel Distance ±5 %, churn > 10 rows"), or null for none. */
export function notifyText(notify: Schedule['notify']): string | null {
  if (notify === null) return null;
  const parts = Object.entries(notify.kpis).map(([name, t]) => {
    const bounds = [t.absolute !== undefined ? `±${formatNumber(t.absolute)}` : null, t.relative !== undefined ? `±${formatNumber(t.relative * 100)} %` : null].filter((b) => b !== null);
    return `${name} ${bounds.join(' or ')}`;
  });
  const churn = notify.churn;
  if (churn) {
    const bounds = [churn.rows !== undefined ? `${formatNumber(churn.rows)} rows` : null, churn.share !== undefined ? `${formatNumber(churn.share * 100)} % of rows` : null].filter((b) => b !== null);
    parts.push(`more than ${bounds.join(' or ')} changed`);
  }
  return parts.length === 0 ? null : parts.join('; ');
}

/**
 * The badge colour of a tick's status. The scenario badges' colours are reused (styles.css), so a
 * run that is done reads as a complete scenario does.
 */
export const TICK_BADGE: Readonly<Record<TickStatus, string>> = { running: 'PROCESSING', done: 'COMPLETE', failed: 'FAILED', skipped: 'CANCELLED' };

/** Why a tick did not do its work: the error of a failed one, the reason of a skipped one. */
export function tickProblem(tick: Pick<Tick, 'status' | 'error' | 'reason'>): string | null {
  if (tick.status === 'failed') return tick.error ?? 'failed without a message';
  if (tick.status === 'skipped') return tick.reason ?? 'skipped';
  return null;
}

/** One alert in words: "Travel Distance moved +12 (+20 %) from the plan on d-greedy-2". */
export function alertText(alert: TickAlert, tags: ReadonlyMap<string, string>): string {
  const on = tags.get(alert.scenario_id) ?? alert.scenario_id.slice(0, 8);
  if (alert.kind === 'kpi') {
    const relative = formatRelative(alert.relative ?? null);
    return `${alert.kpi ?? 'a KPI'} moved ${formatDelta(alert.delta ?? null)}${relative ? ` (${relative})` : ''} from the plan on ${on}`;
  }
  return `${formatNumber(alert.rows_changed ?? null)} rows changed (${formatRelative(alert.share ?? null).replace(/^\+/, '')}) against the plan on ${on}`;
}
