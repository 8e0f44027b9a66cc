import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { BETTER_WHEN } from '../../domain/define.js';
import { RUN_ERROR_CODES } from '../../model/run-state/run-error.js';
import { STATUSES } from '../../model/run-state/state-machine.js';
import { FilterText, Name, Nullable, ParameterDescriptor, SessionParams } from '../schemas.js';
import type { RouteOptions } from '../services.js';
import { queryValidatorCompiler } from '../query-validator.js';
import { PlanChurn, WarmStartFrom } from './result-diff-schemas.js';
import { StaleMarkSchema } from './version-schemas.js';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, SCENARIO_FIELDS, scenarioPage } from '../../scenarios/list-page.js';

const tags = ['scenarios'];

export const ScenarioParams = Type.Intersect([SessionParams, Type.Object({ id: Type.String({ description: 'scenario id' }) })]);
const Status = Type.Union(STATUSES.map((s) => Type.Literal(s)));
const Kpi = Type.Object({
  name: Type.String(),
  value: Nullable(Type.Number(), { description: 'null until COMPLETE' }),
  unit: Type.String(),
  better_when: Type.Union(BETTER_WHEN.map((b) => Type.Literal(b))),
  threshold: Nullable(Type.Number()),
});

/** The latest `ctx.report` of a run (docs/api/runs.md, "Run insight"). */
export const RunReport = Type.Object(
  {
    objective: Nullable(Type.Number()),
    best_so_far: Nullable(Type.Number()),
    message: Nullable(Type.String()),
    at: Type.String({ format: 'date-time', description: 'when the algorithm reported' }),
  },
  { title: 'RunReport', description: "a run's latest ctx.report; absent until it reports" },
);

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
  started_at: Nullable(Type.String({ format: 'date-time' })),
  finished_at: Nullable(Type.String({ format: 'date-time' })),
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
  report: Type.Optional(RunReport),
  seed: Type.Optional(Type.Integer({ minimum: 0, description: "the seed of the latest run's ctx.random; absent until a run started" })),
  parent_id: Nullable(Type.String(), { description: 'the scenario it was branched from (POST .../branch); null for a root' }),
  warm_start_from: Type.Optional(WarmStartFrom),
  plan_churn: Type.Optional(PlanChurn),
  rebased_from: Type.Optional(Nullable(Type.String(), { description: 'the scenario it was rebased from (POST .../rebase, docs/api/cycles.md); null otherwise' })),
  replans: Type.Optional(Nullable(Type.String(), { description: "the published plan's scenario it re-plans (POST .../plan/replan); null otherwise" })),
  dataset_version: Type.Optional(Nullable(Type.Integer(), { description: "its dataset's version when it was created (or reset, or queued again); docs/api/cycles.md" })),
  result_dataset_version: Type.Optional(Nullable(Type.Integer(), { description: 'the dataset version its latest run read: its result was computed on it once COMPLETE' })),
  stale: Type.Optional(StaleMarkSchema),
});

/** A page of scenarios; each item holds the `fields` asked for (all by default). */
const ScenarioPage = Type.Object(
  {
    items: Type.Array(Type.Partial(Scenario)),
    next_cursor: Nullable(Type.String(), { description: 'the cursor of the next page; null on the last one' }),
  },
  { title: 'A page of scenarios' },
);

/** The list: a plain array without query parameters, a page with any. */
export const ScenarioList = Type.Union([Type.Array(Scenario, { title: 'All scenarios' }), ScenarioPage]);

export const ScenarioListQuery = Type.Object({
  status: Type.Optional(Status),
  algo: Type.Optional(Type.String({ description: 'algorithm name' })),
  dataset: Type.Optional(Type.String({ description: 'dataset key' })),
  q: Type.Optional(FilterText('a substring of the tag, case-insensitive')),
  experiment: Type.Optional(Type.String({ description: 'experiment id: only its scenarios' })),
  parent: Type.Optional(Type.String({ description: 'scenario id: only the branches made from it (its children)' })),
  sort: Type.Optional(
    Type.String({
      description: 'created_at (default), tag, or kpi:<name> (scenarios without the KPI value last); prefix - for descending',
      pattern: '^-?(created_at|tag|kpi:.+)$',
    }),
  ),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE, description: 'page size' })),
  cursor: Type.Optional(Type.String({ description: 'next_cursor of the previous page' })),
  fields: Type.Optional(Type.String({ description: `comma-separated fields to include in each item: ${SCENARIO_FIELDS.join(', ')}` })),
});

/** Whether any list query parameter was given (else the spec's plain array is answered). */
const isListQuery = (query: object) => Object.keys(query).some((key) => key in ScenarioListQuery.properties);

export const ScenarioStatus = Type.Object({
  id: Type.String(),
  tag: Type.String(),
  status: Status,
  progress: Type.Number({ minimum: 0, maximum: 1 }),
  report: Type.Optional(RunReport),
  error_code: Type.Optional(Type.Union(RUN_ERROR_CODES.map((c) => Type.Literal(c)), { description: 'why the run failed; only when FAILED' })),
});

/** Parameter values by name; null or omitted means every default. Any other JSON type is a 422. */
const ParamValues = Type.Optional(Nullable(Type.Object({}, { additionalProperties: true })));

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
    {
      config: { errors: ['CURSOR_INVALID'] },
      // Query values arrive as text: `limit` is converted to its integer type before it is checked.
      validatorCompiler: queryValidatorCompiler,
      schema: {
        summary: 'List scenarios: all in creation order, or with any query parameter one filtered, sorted page',
        description:
          'Without query parameters: every scenario, in creation order (a plain array). With any of them: `{ items, next_cursor }`, ' +
          'a page of the filtered, sorted scenarios; pass `next_cursor` as `cursor` (with the same filters and sort) for the next page.',
        tags,
        params: SessionParams,
        querystring: ScenarioListQuery,
        response: {
          200: ScenarioList,
        },
      },
    },
    async (request) => {
      const sessionId = (await sessions.resolve(request.params.sid)).id;
      if (!isListQuery(request.query)) return scenarios.list(sessionId);
      return scenarioPage(services, sessionId, request.query);
    },
  );

  app.post(
    '/sessions/:sid/scenarios',
    {
      config: { errors: ['PARAMETER_INVALID', 'DATASET_NOT_FOUND', 'ALGORITHM_NOT_FOUND', 'TAG_TAKEN'], audit: { action: 'scenario.create' } },
      schema: {
        summary: 'Create a scenario (CREATED, or QUEUED at once with autorun)',
        tags,
        params: SessionParams,
        body: CreateScenario,
        response: { 201: Scenario },
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
    {
      config: { errors: ['SCENARIO_NOT_FOUND'] },
      schema: { summary: 'A scenario with its result and KPIs', tags, params: ScenarioParams, response: { 200: Scenario } },
    },
    async (request) => scenarios.get(await refOf(request.params)),
  );

  app.delete(
    '/sessions/:sid/scenarios/:id',
    {
      config: { errors: ['SCENARIO_NOT_FOUND', 'PLAN_SCENARIO_PROTECTED'], audit: { action: 'scenario.delete' } },
      schema: {
        summary: 'Delete a scenario, cancelling its run when queued or processing',
        tags,
        params: ScenarioParams,
        response: { 204: Type.Null() },
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
      config: { errors: ['SCENARIO_NOT_FOUND', 'SCENARIO_STATE_CONFLICT', 'SCENARIO_BUSY', 'PLAN_SCENARIO_PROTECTED'], audit: { action: 'scenario.run' } },
      schema: {
        summary: 'Queue a CREATED scenario; answers at once',
        tags,
        params: ScenarioParams,
        response: { 202: Scenario },
      },
    },
    async (request, reply) => reply.code(202).send(await scenarios.run(await refOf(request.params))),
  );

  app.post(
    '/sessions/:sid/scenarios/:id/reset',
    {
      config: { errors: ['SCENARIO_NOT_FOUND', 'SCENARIO_STATE_CONFLICT', 'SCENARIO_BUSY', 'PLAN_SCENARIO_PROTECTED'], audit: { action: 'scenario.reset' } },
      schema: {
        summary: 'Back to CREATED, clearing result and KPIs (a no-op when CREATED)',
        tags,
        params: ScenarioParams,
        response: { 200: Scenario },
      },
    },
    async (request) => scenarios.reset(await refOf(request.params)),
  );

  app.get(
    '/sessions/:sid/scenarios/:id/status',
    {
      config: { errors: ['SCENARIO_NOT_FOUND'] },
      schema: {
        summary: 'Status and progress; cheap enough to poll often',
        tags,
        params: ScenarioParams,
        response: { 200: ScenarioStatus },
      },
    },
    (request) => scenarios.statusByPath(request.params.sid, request.params.id, (ref) => sessions.resolve(ref)),
  );

  app.get(
    '/sessions/:sid/processing',
    {
      config: { errors: [] },
      schema: {
        summary: 'The scenario being processed in the session, or null',
        tags,
        params: SessionParams,
        response: { 200: Nullable(Scenario) },
      },
    },
    async (request, reply) => reply.send(await scenarios.processing((await sessions.resolve(request.params.sid)).id)),
  );
};
