import type { FieldError } from '../errors.js';
import { checkCron } from './cron.js';
import { isPathSegment } from './drop-folder.js';
import { DEFAULT_CATCH_UP_MAX, type CatchUp, type CatchUpMode, type Notify, type ScheduleAction, type ScheduleSpec } from './schedule-spec.js';

/** A schedule as the API takes it (the route's schema checked the JSON types). */
export interface ScheduleInput {
  readonly name: string;
  readonly cron: string;
  readonly timezone?: string;
  readonly active?: boolean;
  readonly refresh?: string | { readonly dataset: string } | null;
  readonly action: 'replan' | { readonly kind: ScheduleAction['kind']; readonly scenario?: string; readonly experiment?: string };
  readonly notify?: { readonly kpis?: Readonly<Record<string, { readonly absolute?: number; readonly relative?: number }>>; readonly churn?: { readonly rows?: number; readonly share?: number } } | null;
  readonly catch_up?: CatchUpMode;
  readonly catch_up_max?: number;
}

/** What the service must still look up (scenario, experiment, plan, KPIs) after the shape is right. */
export interface Parsed {
  readonly spec: ScheduleSpec;
  readonly problems: FieldError[];
}

/** Checks what needs no look-up: cron, time zone, names that must be folder names, thresholds. */
export function parseInput(input: ScheduleInput): Parsed {
  const problems: FieldError[] = [];
  const timezone = input.timezone ?? 'UTC';
  const cron = checkCron({ cron: input.cron, timezone });
  if (!cron.ok && cron.field === 'timezone') problems.push({ path: 'timezone', message: `${cron.problem}; write a name such as 'Europe/Amsterdam' or 'UTC'` });
  if (!cron.ok && cron.field === 'cron') {
    problems.push({ path: 'cron', message: `${cron.problem}; write 5 fields (minute hour day-of-month month day-of-week, e.g. '0 5 * * 1-5') or 6 with seconds first ('*/10 * * * * *')` });
  }
  if (input.name.trim().length === 0) problems.push({ path: 'name', message: 'must not be blank' });
  const refreshKey = input.refresh === undefined || input.refresh === null ? null : typeof input.refresh === 'string' ? input.refresh : input.refresh.dataset;
  if (refreshKey !== null && !isPathSegment(refreshKey)) {
    problems.push({ path: 'refresh.dataset', message: `'${refreshKey}' cannot name a drop folder (no '/', '\\', '.' or '..'); store the data under such a key` });
  }
  const action = actionOf(input.action, problems);
  const notify = notifyOf(input.notify, problems);
  const catchUp: CatchUp = input.catch_up === 'all' ? { mode: 'all', max: input.catch_up_max ?? DEFAULT_CATCH_UP_MAX } : { mode: input.catch_up ?? 'latest' };
  if (input.catch_up_max !== undefined && input.catch_up !== 'all') problems.push({ path: 'catch_up_max', message: "applies only to catch_up 'all'; leave it out, or set catch_up to 'all'" });
  return {
    spec: { name: input.name.trim(), cron: input.cron.trim(), timezone, active: input.active ?? true, refreshKey, action, notify, catchUp },
    problems,
  };
}

function actionOf(input: ScheduleInput['action'], problems: FieldError[]): ScheduleAction {
  const raw = typeof input === 'string' ? { kind: input } : input;
  if (raw.kind === 'rerun') {
    if (raw.scenario === undefined) problems.push({ path: 'action.scenario', message: "is required for 'rerun': write the id (or tag) of the scenario to reset and run" });
    return { kind: 'rerun', scenario: raw.scenario ?? '' };
  }
  if (raw.kind === 'experiment') {
    if (raw.experiment === undefined) problems.push({ path: 'action.experiment', message: "is required for 'experiment': write the id of the experiment to rerun" });
    return { kind: 'experiment', experiment: raw.experiment ?? '' };
  }
  return { kind: 'replan' };
}

function notifyOf(input: ScheduleInput['notify'], problems: FieldError[]): Notify | null {
  if (input === undefined || input === null) return null;
  const kpis = input.kpis ?? {};
  for (const [name, bound] of Object.entries(kpis)) {
    if (bound.absolute === undefined && bound.relative === undefined) problems.push({ path: `notify.kpis.${name}`, message: 'needs absolute or relative (or both), e.g. { "relative": 0.05 }' });
  }
  const churn = input.churn ?? null;
  if (churn !== null && churn.rows === undefined && churn.share === undefined) problems.push({ path: 'notify.churn', message: 'needs rows or share (or both), e.g. { "share": 0.1 }' });
  return { kpis, churn };
}
