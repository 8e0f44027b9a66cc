import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../../scenarios/list-page.js';
import { queryValidatorCompiler } from '../query-validator.js';
import type { RouteOptions } from '../services.js';
import { ExplanationView } from './explanation-schemas.js';
import { ScenarioParams } from './scenarios.js';

const ExplanationQuery = Type.Object({
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE, description: 'violations per page' })),
  cursor: Type.Optional(Type.String({ description: 'next_cursor of the previous page' })),
});

/** `GET /sessions/{sid}/scenarios/{id}/explanation`: why the plan is what it is (docs/api/explanations.md). */
export const explanationRoutes: FastifyPluginAsyncTypebox<RouteOptions> = async (app, { services }) => {
  const { sessions, scenarios, explanations } = services;
  app.get(
    '/sessions/:sid/scenarios/:id/explanation',
    {
      config: { errors: ['SCENARIO_NOT_FOUND', 'RESULT_NOT_READY', 'CURSOR_INVALID'] },
      validatorCompiler: queryValidatorCompiler,
      schema: {
        summary: "Why this plan: each explained KPI's terms and residual, the constraints it breaks with their rows (paged), and whether it is infeasible",
        tags: ['scenarios'],
        params: ScenarioParams,
        querystring: ExplanationQuery,
        response: { 200: ExplanationView },
      },
    },
    async (request) => {
      const session = await sessions.resolve(request.params.sid);
      const record = await scenarios.record({ sessionId: session.id, id: request.params.id });
      return explanations.view(record, { limit: request.query.limit ?? DEFAULT_PAGE_SIZE, cursor: request.query.cursor });
    },
  );
};
