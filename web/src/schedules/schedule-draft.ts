import type { NewSchedule, ScheduleNotify } from '../api/schedules.ts';
import { composeCron, DEFAULT_CRON_DRAFT, type CronDraft } from './cron-choices.ts';

/**
 * The schedule form's state as typed, and the create body made of it. What the form can tell at once
 * (no name, a time that is not one, a threshold that is not a number) is said before asking the
 * server; everything else (a cron the server's library refuses, an unknown zone, a session without a
 * published plan) comes back as the server's refusal, shown in its words.
 */

export type ActionKind = 'replan' | 'rerun' | 'experiment';
export type CatchUpMode = NonNullable<NewSchedule['catch_up']>;

/** A KPI's thresholds as typed: an absolute change, and a relative one in percent. */
export interface KpiThresholdDraft {
  readonly absolute: string;
  readonly relative: string;
}

export interface NotifyDraft {
  readonly kpis: Readonly<Record<string, KpiThresholdDraft>>;
  /** Changed result rows against the plan. */
  readonly churnRows: string;
  /** Share of result rows changed, in percent. */
  readonly churnShare: string;
}

export interface ScheduleDraft {
  readonly name: string;
  readonly cron: CronDraft;
  readonly timezone: string;
  readonly action: ActionKind;
  /** Scenario id, for a rerun. */
  readonly scenario: string;
  /** Experiment id, for an experiment. */
  readonly experiment: string;
  /** Dataset key refreshed from its drop folder first; '' for none. */
  readonly refresh: string;
  readonly notify: NotifyDraft;
  readonly catchUp: CatchUpMode;
}

export const EMPTY_NOTIFY: NotifyDraft = { kpis: {}, churnRows: '', churnShare: '' };

export const newDraft = (timezone: string): ScheduleDraft => ({
  name: '',
  cron: DEFAULT_CRON_DRAFT,
  timezone,
  action: 'replan',
  scenario: '',
  experiment: '',
  refresh: '',
  notify: EMPTY_NOTIFY,
  catchUp: 'latest',
});

export type Built = { readonly body: NewSchedule } | { readonly problems: readonly string[] };

/** A non-negative number typed in a field, undefined when left empty, or a problem. */
function amount(text: string, what: string, problems: string[], scale = 1): number | undefined {
  const t = text.trim();
  if (t === '') return undefined;
  const n = Number(t);
  if (!Number.isFinite(n) || n < 0) {
    problems.push(`${what}: enter a number of 0 or more, or leave it empty.`);
    return undefined;
  }
  return n / scale;
}

/** The thresholds given, or null when none is (a schedule without alerts). */
export function notifyOf(draft: NotifyDraft, problems: string[]): ScheduleNotify | null {
  const kpis: NonNullable<ScheduleNotify['kpis']> = {};
  for (const [name, t] of Object.entries(draft.kpis)) {
    const absolute = amount(t.absolute, `${name}, change by more than`, problems);
    const relative = amount(t.relative, `${name}, change by more than (%)`, problems, 100);
    if (absolute !== undefined || relative !== undefined) {
      kpis[name] = { ...(absolute === undefined ? {} : { absolute }), ...(relative === undefined ? {} : { relative }) };
    }
  }
  const rows = amount(draft.churnRows, 'Rows changed', problems);
  if (rows !== undefined && !Number.isInteger(rows)) problems.push('Rows changed: enter a whole number.');
  const share = amount(draft.churnShare, 'Share of rows changed (%)', problems, 100);
  if (share !== undefined && share > 1) problems.push('Share of rows changed (%): enter at most 100.');
  const churn = rows === undefined && share === undefined ? undefined : { ...(rows === undefined ? {} : { rows }), ...(share === undefined ? {} : { share }) };
  if (Object.keys(kpis).length === 0 && churn === undefined) return null;
  return { kpis, ...(churn === undefined ? {} : { churn }) };
}

export function scheduleBody(draft: ScheduleDraft): Built {
  const problems: string[] = [];
  const name = draft.name.trim();
  if (name === '') problems.push('Name the schedule (for example “nightly re-plan”).');
  const composed = composeCron(draft.cron);
  if ('problem' in composed) problems.push(composed.problem);
  const timezone = draft.timezone.trim();
  if (timezone === '') problems.push('Pick a time zone (for example Europe/Amsterdam).');
  let action: NewSchedule['action'] = { kind: 'replan' };
  if (draft.action === 'rerun') {
    if (draft.scenario === '') problems.push('Pick the scenario to rerun.');
    action = { kind: 'rerun', scenario: draft.scenario };
  } else if (draft.action === 'experiment') {
    if (draft.experiment === '') problems.push('Pick the experiment to rerun.');
    action = { kind: 'experiment', experiment: draft.experiment };
  }
  const notify = notifyOf(draft.notify, problems);
  if (problems.length > 0 || 'problem' in composed) return { problems };
  return {
    body: {
      name,
      cron: composed.cron,
      timezone,
      action,
      catch_up: draft.catchUp,
      ...(draft.refresh === '' ? {} : { refresh: { dataset: draft.refresh } }),
      ...(notify === null ? {} : { notify }),
    },
  };
}
