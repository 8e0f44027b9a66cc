import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { SessionParams } from '../schemas.js';
import type { RouteOptions } from '../services.js';
import { CreateSchedule, PatchSchedule, Preview, PreviewAnswer, Schedule, ScheduleParams, Tick } from './schedule-schemas.js';

const tags = ['schedules'];
const INVALID = ['SCHEDULE_INVALID', 'SCHEDULE_NAME_TAKEN', 'SCHEDULE_PLAN_MISSING'] as const;

/** `/sessions/{sid}/schedules...` (docs/api/schedules.md): recurring refreshes and runs, their ticks. */
export const scheduleRoutes: FastifyPluginAsyncTypebox<RouteOptions> = async (app, { services }) => {
  const { sessions, schedules } = services;
  const sessionOf = async (sid: string) => (await sessions.resolve(sid)).id;

  app.post(
    '/sessions/:sid/schedules',
    {
      config: { errors: [...INVALID], audit: { action: 'schedule.create' } },
      schema: { summary: 'Create a schedule', tags, params: SessionParams, body: CreateSchedule, response: { 201: Schedule } },
    },
    async (request, reply) => reply.code(201).send(await schedules.create(await sessionOf(request.params.sid), request.body)),
  );

  app.get(
    '/sessions/:sid/schedules',
    { config: { errors: [] }, schema: { summary: "The session's schedules", tags, params: SessionParams, response: { 200: Type.Object({ schedules: Type.Array(Schedule) }) } } },
    async (request) => ({ schedules: await schedules.list(await sessionOf(request.params.sid)) }),
  );

  app.post(
    '/sessions/:sid/schedules/preview',
    {
      config: { errors: ['SCHEDULE_INVALID'], scope: 'read', audit: false },
      schema: { summary: 'The next ticks of a cron in a time zone (nothing is stored)', tags, params: SessionParams, body: Preview, response: { 200: PreviewAnswer } },
    },
    async (request) => {
      await sessionOf(request.params.sid);
      return schedules.preview(request.body.cron, request.body.timezone, request.body.count);
    },
  );

  app.get(
    '/sessions/:sid/schedules/:id',
    { config: { errors: ['SCHEDULE_NOT_FOUND'] }, schema: { summary: 'Get a schedule', tags, params: ScheduleParams, response: { 200: Schedule } } },
    async (request) => schedules.get(await sessionOf(request.params.sid), request.params.id),
  );

  app.patch(
    '/sessions/:sid/schedules/:id',
    {
      config: { errors: ['SCHEDULE_NOT_FOUND', ...INVALID], audit: { action: 'schedule.update', targets: { id: 'schedule' } } },
      schema: { summary: 'Change a schedule (active: false pauses it)', tags, params: ScheduleParams, body: PatchSchedule, response: { 200: Schedule } },
    },
    async (request) => schedules.update(await sessionOf(request.params.sid), request.params.id, request.body),
  );

  app.delete(
    '/sessions/:sid/schedules/:id',
    {
      config: { errors: ['SCHEDULE_NOT_FOUND'], audit: { action: 'schedule.delete', targets: { id: 'schedule' } } },
      schema: { summary: 'Delete a schedule and its ticks', tags, params: ScheduleParams, response: { 204: Type.Null() } },
    },
    async (request, reply) => {
      await schedules.delete(await sessionOf(request.params.sid), request.params.id);
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/sessions/:sid/schedules/:id/ticks',
    {
      config: { errors: ['SCHEDULE_NOT_FOUND'] },
      schema: { summary: "The schedule's ticks, newest first", tags, params: ScheduleParams, response: { 200: Type.Object({ ticks: Type.Array(Tick) }) } },
    },
    async (request) => ({ ticks: await schedules.ticksOf(await sessionOf(request.params.sid), request.params.id) }),
  );

  app.post(
    '/sessions/:sid/schedules/:id/run',
    {
      config: { errors: ['SCHEDULE_NOT_FOUND'], audit: { action: 'schedule.run', targets: { id: 'schedule' } } },
      schema: { summary: 'Run a tick now (skipped while one runs); poll its ticks for the outcome', tags, params: ScheduleParams, response: { 202: Tick } },
    },
    async (request, reply) => reply.code(202).send(await schedules.runNow(await sessionOf(request.params.sid), request.params.id)),
  );
};
