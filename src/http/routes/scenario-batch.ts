import { type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { BATCH_ACTIONS } from '../../scenarios/batch-actions.js';
import { SessionParams } from '../schemas.js';
import type { RouteOptions } from '../services.js';
import { BatchBody, BatchResult } from './experiment-schemas.js';

/**
 * `POST /sessions/{sid}/scenarios:run|:cancel|:reset|:delete`: one action on many scenarios, given by
 * id or by the list route's filters, in one transaction. (`::` is Fastify's escape for a literal colon.)
 */
export const scenarioBatchRoutes: FastifyPluginAsyncTypebox<RouteOptions> = async (app, { services }) => {
  const { sessions, batch } = services;
  for (const action of BATCH_ACTIONS) {
    app.post(
      `/sessions/:sid/scenarios::${action}`,
      {
        // An unknown scenario, or one whose status forbids the action, is skipped and counted; the
        // published plan's scenario among a run, reset or delete refuses the whole batch.
        config: { errors: ['PLAN_SCENARIO_PROTECTED'], audit: { action: `scenario.batch-${action}` } },
        schema: {
          summary: `${action[0]!.toUpperCase()}${action.slice(1)} many scenarios at once, by ids or by filter; answers what changed and what was skipped`,
          tags: ['scenarios'],
          params: SessionParams,
          body: BatchBody,
          response: { 200: BatchResult },
        },
      },
      async (request) => {
        const sessionId = (await sessions.resolve(request.params.sid)).id;
        const body = request.body;
        return batch.apply(sessionId, action, 'ids' in body ? { ids: body.ids } : { filter: body.filter });
      },
    );
  }
};
