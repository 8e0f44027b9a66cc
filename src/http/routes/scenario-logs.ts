import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { LOG_LEVELS } from '../../model/run-state/run-insight.js';
import type { RouteOptions } from '../services.js';
import { ScenarioParams } from './scenarios.js';

const ScenarioLogs = Type.Object(
  {
    lines: Type.Array(
      Type.Object({
        at: Type.String({ format: 'date-time' }),
        level: Type.Union(LOG_LEVELS.map((level) => Type.Literal(level))),
        message: Type.String({ description: 'at most 2,000 characters' }),
        fields: Type.Optional(Type.Record(Type.String(), Type.Unknown(), { description: 'the fields given to ctx.log, when any' })),
      }),
      { description: "the last 1,000 ctx.log lines of the latest run, oldest first; empty before a run" },
    ),
    truncated: Type.Boolean({ description: 'the run wrote more lines than those served' }),
    error: Type.Optional(
      Type.Object(
        {
          class: Type.String({ description: "the thrown error's class" }),
          message: Type.String(),
          stack: Type.Array(Type.String(), { description: "stack frames; only the domain module's when identifiable" }),
        },
        { description: 'only when FAILED by an error the domain code threw' },
      ),
    ),
  },
  { title: 'ScenarioLogs' },
);

/** `GET /sessions/{sid}/scenarios/{id}/logs`: what the latest run logged, and what it threw (docs/api/runs.md). */
export const scenarioLogRoutes: FastifyPluginAsyncTypebox<RouteOptions> = async (app, { services }) => {
  const { sessions, scenarios } = services;
  app.get(
    '/sessions/:sid/scenarios/:id/logs',
    {
      config: { errors: ['SCENARIO_NOT_FOUND'] },
      schema: {
        summary: "The latest run's ctx.log lines (the last 1,000) and, when it failed by throwing, the error's class and stack",
        tags: ['scenarios'],
        params: ScenarioParams,
        response: { 200: ScenarioLogs },
      },
    },
    async (request) => {
      const session = await sessions.resolve(request.params.sid);
      return scenarios.logs({ sessionId: session.id, id: request.params.id });
    },
  );
};
