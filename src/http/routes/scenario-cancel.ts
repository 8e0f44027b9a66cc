import { type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { RouteOptions } from '../services.js';
import { Scenario, ScenarioParams } from './scenarios.js';

/** `POST /sessions/{sid}/scenarios/{id}/cancel`: ends a queued or running scenario as FAILED (CANCELLED), keeping it. */
export const scenarioCancelRoutes: FastifyPluginAsyncTypebox<RouteOptions> = async (app, { services }) => {
  const { sessions, scenarios } = services;
  app.post(
    '/sessions/:sid/scenarios/:id/cancel',
    {
      config: { errors: ['SCENARIO_NOT_FOUND', 'SCENARIO_STATE_CONFLICT', 'SCENARIO_BUSY'], audit: { action: 'scenario.cancel' } },
      schema: {
        summary: 'Cancel a QUEUED or PROCESSING scenario: it ends FAILED with error code CANCELLED and is kept',
        tags: ['scenarios'],
        params: ScenarioParams,
        response: { 200: Scenario },
      },
    },
    async (request) => {
      const session = await sessions.resolve(request.params.sid);
      return scenarios.cancel({ sessionId: session.id, id: request.params.id });
    },
  );
};
