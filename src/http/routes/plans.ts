import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { actorOf } from '../../auth/actor.js';
import { SessionParams } from '../schemas.js';
import type { RouteOptions } from '../services.js';
import { Note, PlanSchema, SessionPlanSchema } from './plan-schemas.js';
import { ScenarioParams } from './scenarios.js';

const tags = ['plans'];

/** `POST .../scenarios/{id}/publish`, `GET .../plan`, `DELETE .../plan` (docs/api/plans-and-reports.md). */
export const planRoutes: FastifyPluginAsyncTypebox<RouteOptions> = async (app, { services }) => {
  const { sessions, plans } = services;

  app.post(
    '/sessions/:sid/scenarios/:id/publish',
    {
      config: { errors: ['SCENARIO_NOT_FOUND', 'PLAN_SCENARIO_NOT_COMPLETE', 'PLAN_ALREADY_PUBLISHED'], audit: { action: 'plan.publish' } },
      schema: {
        summary: "Publish a COMPLETE scenario as the session's plan, superseding the current one",
        tags,
        params: ScenarioParams,
        body: Type.Object({ note: Note }),
        response: { 201: PlanSchema },
      },
    },
    async (request, reply) => {
      const session = await sessions.resolve(request.params.sid);
      const plan = await plans.publish({ sessionId: session.id, id: request.params.id }, request.body.note, actorOf(request.principal));
      return reply.code(201).send(plan);
    },
  );

  app.get(
    '/sessions/:sid/plan',
    {
      config: { errors: [] },
      schema: {
        summary: "The session's current plan (null when none) and the earlier ones",
        tags,
        params: SessionParams,
        response: { 200: SessionPlanSchema },
      },
    },
    async (request) => plans.get((await sessions.resolve(request.params.sid)).id),
  );

  app.delete(
    '/sessions/:sid/plan',
    {
      config: { errors: ['PLAN_NOT_PUBLISHED'], audit: { action: 'plan.withdraw' } },
      schema: {
        summary: 'Withdraw the current plan, with a note; its scenario and dataset are no longer protected',
        tags,
        params: SessionParams,
        body: Type.Object({ note: Note }),
        response: { 200: PlanSchema },
      },
    },
    async (request) => plans.withdraw((await sessions.resolve(request.params.sid)).id, request.body.note, actorOf(request.principal)),
  );
};
