import type { operations } from 'scenarist/client';
import type { Api } from './client.ts';
import { unwrap } from './http.ts';
import type { Answer } from './types.ts';

/** The schedule routes (docs/api/schedules.md) through the API's typed client; types come from the generated schema. */

export type Schedule = Answer<'getSessionsBySidSchedulesById', 200>;
export type Tick = Answer<'getSessionsBySidSchedulesByIdTicks', 200>['ticks'][number];
export type TickStatus = Tick['status'];
export type TickOutcome = NonNullable<Tick['outcome']>;
export type TickAlert = TickOutcome['alerts'][number];
export type NewSchedule = NonNullable<operations['postSessionsBySidSchedules']['requestBody']>['content']['application/json'];
export type SchedulePatch = NonNullable<operations['patchSessionsBySidSchedulesById']['requestBody']>['content']['application/json'];
export type ScheduleNotify = NonNullable<NewSchedule['notify']>;

export const scheduleKeys = {
  all: (sid: string) => ['schedules', sid] as const,
  one: (sid: string, id: string) => ['schedules', sid, id] as const,
  ticks: (sid: string, id: string) => ['schedules', sid, id, 'ticks'] as const,
  /** Not under `all`: a changed schedule does not change what a cron's next ticks are. */
  preview: (sid: string, cron: string, timezone: string) => ['schedule-preview', sid, cron, timezone] as const,
};

export const listSchedules = async ({ http, config }: Api, sid: string): Promise<Schedule[]> =>
  (await unwrap(config, http.GET('/sessions/{sid}/schedules', { params: { path: { sid } } }))).schedules;

export const schedule = ({ http, config }: Api, sid: string, id: string): Promise<Schedule> =>
  unwrap(config, http.GET('/sessions/{sid}/schedules/{id}', { params: { path: { sid, id } } }));

export const createSchedule = ({ http, config }: Api, sid: string, body: NewSchedule): Promise<Schedule> =>
  unwrap(config, http.POST('/sessions/{sid}/schedules', { params: { path: { sid } }, body }));

/** Any field of the create body; `{ active: false }` pauses, `{ active: true }` resumes (counting ticks from now). */
export const patchSchedule = ({ http, config }: Api, sid: string, id: string, body: SchedulePatch): Promise<Schedule> =>
  unwrap(config, http.PATCH('/sessions/{sid}/schedules/{id}', { params: { path: { sid, id } }, body }));

export const deleteSchedule = ({ http, config }: Api, sid: string, id: string) =>
  unwrap(config, http.DELETE('/sessions/{sid}/schedules/{id}', { params: { path: { sid, id } } }));

/** Newest first, the latest 200. */
export const listTicks = async ({ http, config }: Api, sid: string, id: string): Promise<Tick[]> =>
  (await unwrap(config, http.GET('/sessions/{sid}/schedules/{id}/ticks', { params: { path: { sid, id } } }))).ticks;

/** Records a tick due now and starts it (a `skipped` tick while one runs). */
export const runScheduleNow = ({ http, config }: Api, sid: string, id: string): Promise<Tick> =>
  unwrap(config, http.POST('/sessions/{sid}/schedules/{id}/run', { params: { path: { sid, id } } }));

/** The next ticks of a cron in a zone (ISO, UTC); a cron or zone the server refuses is a 422 with its detail. */
export const previewTicks = async ({ http, config }: Api, sid: string, cron: string, timezone: string, count = 5): Promise<string[]> =>
  (await unwrap(config, http.POST('/sessions/{sid}/schedules/preview', { params: { path: { sid } }, body: { cron, timezone, count } }))).next_ticks;
