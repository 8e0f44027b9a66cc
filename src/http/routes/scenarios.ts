import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { BETTER_WHEN } from '../../domain/define.js';
import { RUN_ERROR_CODES } from '../../scenarios/run-error.js';
import { STATUSES } from '../../scenarios/state-machine.js';
import { errorResponses, Name, ParameterDescriptor, SessionParams } from '../schemas.js';
import type { RouteOptions } from '../services.js';

const tags = ['scenarios'];

export const ScenarioParams = Type.Intersect([SessionParams, Type.Object({ id: Type.String({ description: 'scenario id' }) })]);
const Status = Type.Union(STATUSES.map((s) => Type.Literal(s)));
const NullableNumber = Type.Union([Type.Number(), Type.Null()]);

const Kpi = Type.Object({
  name: Type.String(),
  value: Type.Union([Type.Number(), Type.Null()], { description: 'null until COMPLETE' }),
  unit: Type.String(),
  better_when: Type.Union(BETTER_WHEN.map((b) => Type.Literal(b))),
  threshold: NullableNumber,
});

export const Scenario = Type.Object({
  id: Type.String(),
  tag: Type.String(),
  input_data_id: Type.String({ description: 'the dataset key' }),
  algorithm: Type.Object({ name: Type.String(), parameters: Type.Array(ParameterDescriptor) }),
  kpis: Type.Record(Type.String(), Kpi, { description: 'keyed by KPI name' }),
  status: Status,
  result: Type.Unknown({ description: 'the algorithm result once COMPLETE, else null' }),
  data_parameters: Type.Record(Type.String(), Type.Unknown()),
  progress: Type.Number({ minimum: 0, maximum: 1 }),
  created_at: Type.String({ format: 'date-time' }),
  started_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  finished_at: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
  error: Type.Union(
    [
      Type.Object({
        message: Type.String(),
        code: Type.Optional(Type.Union(RUN_ERROR_CODES.map((c) => Type.Literal(c)), { description: 'why the run failed' })),
      }),
      Type.Null(),
    ],
    { description: 'set when FAILED' },
  ),
});

const ScenarioStatus = Type.Object({ id: Type.String(), tag: Type.String(), status: Status, progress: Type.Number({ minimum: 0, maximum: 1 }) });

/** Parameter values by name; null or omitted means every default. Any other JSON type is a 422. */
const ParamValues = Type.Optional(Type.Union([Type.Object({}, { additionalProperties: true }), Type.Null()]));

const CreateScenario = Type.Object({
  tag: Name,
  dataset_key: Type.String({ minLength: 1 }),
  algo_name: Type.String({ minLength: 1 }),
  algo_params: ParamValues,
  data_params: ParamValues,
});

/** `/sessions/{sid}/scenarios...` and `/sessions/{sid}/processing`. State changes are the service's. */
export const scenarioRoutes: FastifyPluginAsyncTypebox<RouteOptions> = async (app, { services }) => {
  const { sessions, scenarios } = services;
  const refOf = async (params: { sid: string; id: string }) => ({ sessionId: (await sessions.resolve(params.sid)).id, id: params.id });

  app.get(
    '/sessions/:sid/scenarios',
    { schema: { summary: 'List scenarios in creation order', tags, params: SessionParams, response: { 200: Type.Array(Scenario), ...errorResponses(404) } } },
    async (request) => scenarios.list((await sessions.resolve(request.params.sid)).id),
  );

  app.post(
    '/sessions/:sid/scenarios',
    {
      schema: {
        summary: 'Create a scenario (CREATED, or QUEUED at once with autorun)',
        tags,
        params: SessionParams,
        body: CreateScenario,
        response: { 201: Scenario, ...errorResponses(400, 404, 409, 422) },
      },
    },
    async (request, reply) => {
      const session = await sessions.resolve(request.params.sid);
      const { tag, dataset_key, algo_name, algo_params, data_params } = request.body;
      const created = await scenarios.create(session.id, { tag, datasetKey: dataset_key, algoName: algo_name, algoParams: algo_params, dataParams: data_params });
      return reply.code(201).send(created);
    },
  );

  app.get(
    '/sessions/:sid/scenarios/:id',
    { schema: { summary: 'A scenario with its result and KPIs', tags, params: ScenarioParams, response: { 200: Scenario, ...errorResponses(404) } } },
    async (request) => scenarios.get(await refOf(request.params)),
  );

  app.delete(
    '/sessions/:sid/scenarios/:id',
    {
      schema: {
        summary: 'Delete a scenario, cancelling its run when queued or processing',
        tags,
        params: ScenarioParams,
        response: { 204: Type.Null(), ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      await scenarios.delete(await refOf(request.params));
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/sessions/:sid/scenarios/:id/run',
    {
      schema: {
        summary: 'Queue a CREATED scenario; answers at once',
        tags,
        params: ScenarioParams,
        response: { 202: Scenario, ...errorResponses(404, 409) },
      },
    },
    async (request, reply) => reply.code(202).send(await scenarios.run(await refOf(request.params))),
  );

  app.post(
    '/sessions/:sid/scenarios/:id/reset',
    {
      schema: {
        summary: 'Back to CREATED, clearing result and KPIs (a no-op when CREATED)',
        tags,
        params: ScenarioParams,
        response: { 200: Scenario, ...errorResponses(404, 409) },
      },
    },
    async (request) => scenarios.reset(await refOf(request.params)),
  );

  app.get(
    '/sessions/:sid/scenarios/:id/status',
    {
      schema: {
        summary: 'Status and progress; cheap enough to poll often',
        tags,
        params: ScenarioParams,
        response: { 200: ScenarioStatus, ...errorResponses(404) },
      },
    },
    (request) => scenarios.statusByPath(request.params.sid, request.params.id, (ref) => sessions.resolve(ref)),
  );

  app.get(
    '/sessions/:sid/processing',
    {
      schema: {
        summary: 'The scenario being processed in the session, or null',
        tags,
        params: SessionParams,
        response: { 200: Type.Union([Scenario, Type.Null()]), ...errorResponses(404) },
      },
    },
    async (request, reply) => reply.send(await scenarios.processing((await sessions.resolve(request.params.sid)).id)),
  );
};
