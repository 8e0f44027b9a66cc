import { type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses } from '../schemas.js';
import type { RouteOptions } from '../services.js';
import { Scenario, ScenarioParams } from './scenarios.js';

/** `POST /sessions/{sid}/scenarios/{id}/cancel`: ends a queued or running scenario as FAILED (CANCELLED), keeping it. */
export const scenarioCancelRoutes: FastifyPluginAsyncTypebox<RouteOptions> = async (app, { services }) => {
  const { sessions, scenarios } = services;
  app.post(
    '/sessions/:sid/scenarios/:id/cancel',
    {
      schema: {
        summary: 'Cancel a QUEUED or PROCESSING scenario: it ends FAILED with error code CANCELLED and is kept',
        tags: ['scenarios'],
        params: ScenarioParams,
        response: { 200: Scenario, ...errorResponses(404, 409) },
      },
    },
    async (request) => {
      const session = await sessions.resolve(request.params.sid);
      return scenarios.cancel({ sessionId: session.id, id: request.params.id });
    },
  );
};
