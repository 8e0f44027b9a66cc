import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { RouteOptions } from '../services.js';
import { Nullable } from '../schemas.js';
import { BranchBodyShape, DerivedDataset, Lineage } from './scenario-tree-schemas.js';
import { Scenario, ScenarioParams } from './scenarios.js';

const tags = ['scenarios'];

const Branch = Type.Composite([Scenario, Type.Object({ derived_dataset: Nullable(DerivedDataset) })], { title: 'Branch' });

/** `POST /sessions/{sid}/scenarios/{id}/branch` and `GET .../lineage`. */
export const scenarioTreeRoutes: FastifyPluginAsyncTypebox<RouteOptions> = async (app, { services }) => {
  const { sessions, branches, tree } = services;
  const refOf = async (params: { sid: string; id: string }) => ({ sessionId: (await sessions.resolve(params.sid)).id, id: params.id });

  app.post(
    '/sessions/:sid/scenarios/:id/branch',
    {
      config: {
        errors: [
          'SCENARIO_NOT_FOUND',
          'ALGORITHM_NOT_FOUND',
          'PARAMETER_INVALID',
          'DATASET_EDITS_INVALID',
          'TAG_TAKEN',
          'DATASET_KEY_TAKEN',
          // The base's dataset replaced while the branch's was derived from it; a domain's derive() refusing.
          'CONFLICT',
          'DATASET_NOT_FOUND',
          'DATASET_FORM_INVALID',
          'BAD_INPUT',
          'SCENARIO_STATE_CONFLICT',
          'SCENARIO_BUSY',
        ],
        // The path's scenario is the base; the branch made from it is noted as `scenario` by its create.
        audit: { action: 'scenario.branch', targets: { id: 'base' } },
      },
      schema: {
        summary: "Branch a scenario: a new one whose parent it is, with the base's algorithm and parameters (the given ones merged over them) and, with edits, a dataset derived from the base's",
        tags,
        params: ScenarioParams,
        // `edits` are checked by the dataset service (the OpenAPI document shows their form: BranchBody).
        body: BranchBodyShape,
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
