import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { ErrorCodeSchema, SessionParams } from '../schemas.js';
import type { RouteOptions } from '../services.js';
import { Scenario, ScenarioParams } from './scenarios.js';

const OnConflict = Type.Optional(
  Type.Union([Type.Literal('fail'), Type.Literal('skip')], {
    description: 'fail (default): any edit that no longer fits refuses the rebase (409 REBASE_CONFLICT); skip: such edits are left out and recorded on the new dataset',
  }),
);

const RebaseBody = Type.Object(
  {
    onto: Type.Optional(Type.Integer({ minimum: 1, description: "the version of the scenario's root dataset to rebase onto; the newest when absent" })),
    tree: Type.Optional(Type.Boolean({ description: 'rebase its descendants too, in the same transaction' })),
    run: Type.Optional(Type.Boolean({ description: 'queue the successors at once' })),
    on_conflict: OnConflict,
  },
  { additionalProperties: false },
);

const ReplanBody = Type.Object(
  {
    run: Type.Optional(Type.Boolean({ description: 'queue the successor at once (default true)' })),
    on_conflict: OnConflict,
  },
  { additionalProperties: false },
);

const RebaseConflictBody = Type.Object(
  {
    detail: Type.String(),
    code: ErrorCodeSchema,
    conflicts: Type.Optional(
      Type.Array(
        Type.Object({
          scenario_id: Type.String({ description: 'the scenario the edit concerns (the one using the dataset, else the first whose data derives from it)' }),
          tag: Type.String(),
          dataset: Type.String({ description: 'the dataset whose edit it is' }),
          path: Type.String({ description: "the edit's path among that dataset's edits (`edits[2].update.where.zone`)" }),
          message: Type.String(),
        }),
        { description: 'REBASE_CONFLICT: every edit that no longer fits, all at once' },
      ),
    ),
  },
  { title: 'RebaseConflict' },
);

const tags = ['scenarios'];
/** Refusals of both routes: what a create refuses, what a derive refuses, and the conflicts. */
const REFUSALS = ['SCENARIO_NOT_FOUND', 'ALGORITHM_NOT_FOUND', 'PARAMETER_INVALID', 'REBASE_CONFLICT', 'TAG_TAKEN', 'DATASET_KEY_TAKEN', 'DATASET_NOT_FOUND', 'CONFLICT'] as const;

/** `POST .../scenarios/{id}/rebase` and `POST .../plan/replan` (docs/api/cycles.md, "Rebase and re-plan"). */
export const rebaseRoutes: FastifyPluginAsyncTypebox<RouteOptions> = async (app, { services }) => {
  const { sessions, rebase } = services;

  app.post(
    '/sessions/:sid/scenarios/:id/rebase',
    {
      config: { errors: [...REFUSALS, 'DATASET_VERSION_NOT_FOUND'], audit: { action: 'scenario.rebase', targets: { id: 'rebased' } } },
      schema: {
        summary: "Re-apply a scenario's data edits (and its ancestors') to a version of its root dataset: new derived datasets and successor scenarios with the same parameters",
        tags,
        params: ScenarioParams,
        body: RebaseBody,
        response: { 201: Type.Object({ scenarios: Type.Array(Scenario, { description: 'the successors, in tree order' }) }), 409: RebaseConflictBody },
      },
    },
    async (request, reply) => {
      const sessionId = (await sessions.resolve(request.params.sid)).id;
      const { onto, tree, run, on_conflict } = request.body;
      const scenarios = await rebase.rebase({ sessionId, id: request.params.id }, { onto, tree, run, onConflict: on_conflict });
      return reply.code(201).send({ scenarios });
    },
  );

  app.post(
    '/sessions/:sid/plan/replan',
    {
      config: { errors: [...REFUSALS, 'PLAN_NOT_PUBLISHED'], audit: { action: 'plan.replan' } },
      schema: {
        summary: "The published plan's successor on the newest data (its edits rebased), run at once unless run is false",
        tags: ['plans'],
        params: SessionParams,
        body: ReplanBody,
        response: { 201: Scenario, 409: RebaseConflictBody },
      },
    },
    async (request, reply) => {
      const sessionId = (await sessions.resolve(request.params.sid)).id;
      const successor = await rebase.replan(sessionId, { run: request.body.run, onConflict: request.body.on_conflict });
      return reply.code(201).send(successor);
    },
  );
};
