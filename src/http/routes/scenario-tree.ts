import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Name } from '../schemas.js';
import type { RouteOptions } from '../services.js';
import { DerivedDataset, Lineage } from './scenario-tree-schemas.js';
import { Scenario, ScenarioParams } from './scenarios.js';

const tags = ['scenarios'];

/** Parameter values by name, merged over the base's; null or omitted keeps the base's values. */
const ParamValues = Type.Optional(Type.Union([Type.Object({}, { additionalProperties: true }), Type.Null()]));

const BranchBody = Type.Object({
  tag: Name,
  algo_params: ParamValues,
  data_params: ParamValues,
  edits: Type.Optional(
    Type.Array(Type.Object({}, { additionalProperties: true }), {
      description: "edits of the base's dataset (docs/api/what-ifs.md); non-empty, the branch runs on a dataset derived with them",
    }),
  ),
  run: Type.Optional(Type.Boolean({ description: 'queue the branch at once' })),
});

const Branch = Type.Composite([Scenario, Type.Object({ derived_dataset: Type.Union([DerivedDataset, Type.Null()]) })], { title: 'Branch' });

/** `POST /sessions/{sid}/scenarios/{id}/branch` and `GET .../lineage`. */
export const scenarioTreeRoutes: FastifyPluginAsyncTypebox<RouteOptions> = async (app, { services }) => {
  const { sessions, branches, tree } = services;
  const refOf = async (params: { sid: string; id: string }) => ({ sessionId: (await sessions.resolve(params.sid)).id, id: params.id });

  app.post(
    '/sessions/:sid/scenarios/:id/branch',
    {
      config: {
        errors: ['SCENARIO_NOT_FOUND', 'ALGORITHM_NOT_FOUND', 'PARAMETER_INVALID', 'TAG_TAKEN', 'DATASET_KEY_TAKEN', 'SCENARIO_STATE_CONFLICT', 'SCENARIO_BUSY'],
      },
      schema: {
        summary: "Branch a scenario: a new one whose parent it is, with the base's algorithm and parameters (the given ones merged over them) and, with edits, a dataset derived from the base's",
        tags,
        params: ScenarioParams,
        body: BranchBody,
        response: { 201: Branch },
      },
    },
    async (request, reply) => {
      const { tag, algo_params, data_params, edits, run } = request.body;
      const branch = await branches.branch(await refOf(request.params), { tag, algoParams: algo_params, dataParams: data_params, edits, run });
      return reply.code(201).send(branch);
    },
  );

  app.get(
    '/sessions/:sid/scenarios/:id/lineage',
    {
      config: { errors: ['SCENARIO_NOT_FOUND'] },
      schema: {
        summary: 'Where a scenario comes from (its ancestors to the root) and its branches as a tree, each with what it changed against its parent',
        tags,
        params: ScenarioParams,
        response: { 200: Lineage },
      },
    },
    async (request) => tree.lineage(await refOf(request.params)),
  );
};
