import type { NewScheduleRow, ScheduleRow } from '../store/schedules-repository.js';
import type { TickRow } from '../store/schedule-ticks-repository.js';
import { nextTicks, parsedCron } from './cron.js';
import { dropFolders } from './drop-folder.js';
import type { RefreshRecord } from './refresh.js';
import type { CatchUp, Notify, ScheduleAction, ScheduleSpec } from './schedule-spec.js';
import type { TickOutcome } from './tick-runner.js';

/** How many coming ticks a schedule's answer lists (the form shows them). */
export const NEXT_TICKS_SHOWN = 5;

export const actionOf = (row: ScheduleRow): ScheduleAction => JSON.parse(row.action) as ScheduleAction;
export const notifyOf = (row: ScheduleRow): Notify | null => (row.notify === null ? null : (JSON.parse(row.notify) as Notify));
export const catchUpOf = (row: ScheduleRow): CatchUp =>
  row.catch_up === 'all' ? { mode: 'all', max: row.catch_up_bound ?? 1 } : { mode: row.catch_up };

/** The columns a spec is stored in (all but identity and times). */
export function specColumns(spec: ScheduleSpec): Omit<NewScheduleRow, 'id' | 'session_id' | 'ticks_from' | 'created_at' | 'updated_at'> {
  return {
    name: spec.name,
    cron: spec.cron,
    timezone: spec.timezone,
    active: spec.active ? 1 : 0,
    refresh_key: spec.refreshKey,
    action: JSON.stringify(spec.action),
    notify: spec.notify === null ? null : JSON.stringify(spec.notify),
    catch_up: spec.catchUp.mode,
    catch_up_bound: spec.catchUp.mode === 'all' ? spec.catchUp.max : null,
  };
}

export function specOf(row: ScheduleRow): ScheduleSpec {
  return {
    name: row.name,
    cron: row.cron,
    timezone: row.timezone,
    active: row.active === 1,
    refreshKey: row.refresh_key,
    action: actionOf(row),
    notify: notifyOf(row),
    catchUp: catchUpOf(row),
  };
}

export interface TickView {
  readonly id: string;
  readonly due_at: string;
  readonly manual: boolean;
  readonly status: TickRow['status'];
  /** Why it was skipped. */
  readonly reason: string | null;
  readonly error: string | null;
  readonly started_at: string | null;
  readonly ended_at: string | null;
  /** Ticks missed while no node was up that this one stands for (`catch_up`). */
  readonly missed: number;
  /** The version of the refreshed (or, without refresh, no) dataset the tick's action used. */
  readonly data_version: number | null;
  readonly refresh: { readonly dataset: string; readonly files: string[]; readonly success: boolean | null; readonly messages: { severity: string; message: string }[] } | null;
  readonly scenario_ids: string[];
  readonly outcome: TickOutcome | null;
}

export function tickView(row: TickRow): TickView {
  const refresh = row.refresh === null ? null : (JSON.parse(row.refresh) as RefreshRecord);
  return {
    id: row.id,
    due_at: row.due_at,
    manual: row.manual === 1,
    status: row.status,
    reason: row.reason,
    error: row.error,
    started_at: row.started_at,
    ended_at: row.ended_at,
    missed: row.missed,
    data_version: row.data_version,
    refresh: refresh === null ? null : { dataset: refresh.dataset, files: refresh.files.map((f) => f.name), success: refresh.success ?? null, messages: [...(refresh.messages ?? [])] },
    scenario_ids: row.scenario_ids === null ? [] : (JSON.parse(row.scenario_ids) as string[]),
    outcome: row.outcome === null ? null : (JSON.parse(row.outcome) as TickOutcome),
  };
}

export interface ScheduleView {
  readonly id: string;
  readonly name: string;
  readonly cron: string;
  readonly timezone: string;
  readonly active: boolean;
  /** `drop_folder`: where to drop files for it (absolute); `drop_folders`: every folder it takes them from. */
  readonly refresh: { readonly dataset: string; readonly drop_folder: string; readonly drop_folders: string[] } | null;
  readonly action: ScheduleAction;
  readonly notify: Notify | null;
  readonly catch_up: CatchUp['mode'];
  readonly catch_up_max: number | null;
  /** The next ticks (none while paused), in UTC ISO 8601. */
  readonly next_ticks: string[];
  readonly last_tick: TickView | null;
  readonly created_at: string;
  readonly updated_at: string;
}

export function scheduleView(row: ScheduleRow, session: { readonly id: string; readonly displayName: string }, dropDir: string, now: Date, last: TickRow | undefined): ScheduleView {
  const folders = row.refresh_key === null ? [] : dropFolders(dropDir, session, row.refresh_key);
  const after = new Date(Math.max(now.getTime(), Date.parse(row.ticks_from)));
  return {
    id: row.id,
    name: row.name,
    cron: row.cron,
    timezone: row.timezone,
    active: row.active === 1,
    refresh: row.refresh_key === null ? null : { dataset: row.refresh_key, drop_folder: folders[0]!, drop_folders: folders },
    action: actionOf(row),
    notify: notifyOf(row),
    catch_up: row.catch_up,
    catch_up_max: row.catch_up_bound,
    next_ticks: row.active === 1 ? nextTicks(parsedCron(row), after, NEXT_TICKS_SHOWN).map((d) => d.toISOString()) : [],
    last_tick: last === undefined ? null : tickView(last),
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}
