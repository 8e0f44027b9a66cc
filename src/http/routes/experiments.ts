import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { RESULT_FORMATS, RESULT_STYLES } from '../../experiments/results-export.js';
import { decodeCursor, encodeCursor } from '../../model/list-cursor.js';
import { SessionParams } from '../schemas.js';
import type { RouteOptions } from '../services.js';
import { queryValidatorCompiler } from '../query-validator.js';
import { BatchResult, CreateExperiment, Experiment, ExperimentDetail, ExperimentPage, ListedErrorBody } from './experiment-schemas.js';

const tags = ['experiments'];
const ExperimentParams = Type.Intersect([SessionParams, Type.Object({ eid: Type.String({ description: 'experiment id' }) })]);
/** The cursor of the experiment list names this sort, so a scenario list's cursor is refused. */
const CURSOR_SORT = 'experiments';

/** `/sessions/{sid}/experiments...`: parameter sweeps, their progress, summary, results and group actions. */
export const experimentRoutes: FastifyPluginAsyncTypebox<RouteOptions> = async (app, { services }) => {
  const { sessions, experiments } = services;
  const sessionOf = async (sid: string) => (await sessions.resolve(sid)).id;

  app.post(
    '/sessions/:sid/experiments',
    {
      config: {
        errors: ['EXPERIMENT_AXES_INVALID', 'PARAMETER_INVALID', 'DATASET_NOT_FOUND', 'ALGORITHM_NOT_FOUND', 'EXPERIMENT_NAME_TAKEN', 'EXPERIMENT_TOO_LARGE', 'EXPERIMENT_REPEATS_SEEDED'],
        audit: { action: 'experiment.create' },
      },
      schema: {
        summary: 'Create an experiment: one scenario per combination of axis values (times repeats), all or nothing',
        description: 'Every combination is validated first; nothing is stored when any is invalid (400, each listed in `errors`).',
        tags,
        params: SessionParams,
        body: CreateExperiment,
        response: { 201: Experiment, 400: ListedErrorBody, 404: ListedErrorBody },
      },
    },
    async (request, reply) => {
      const body = request.body;
      const created = await experiments.create(await sessionOf(request.params.sid), {
        name: body.name,
        algoName: body.algo_name,
        datasetKey: body.dataset_key,
        algoParams: body.algo_params,
        dataParams: body.data_params,
        axes: body.axes,
        repeats: body.repeats ?? 1,
        run: body.run ?? false,
      });
      return reply.code(201).send(created);
    },
  );

  app.get(
    '/sessions/:sid/experiments',
    {
      config: { errors: ['CURSOR_INVALID'] },
      validatorCompiler: queryValidatorCompiler,
      schema: {
        summary: "List the session's experiments in creation order, a page at a time",
        tags,
        params: SessionParams,
        querystring: Type.Object({
          limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500, default: 50 })),
          cursor: Type.Optional(Type.String({ description: 'next_cursor of the previous page' })),
        }),
        response: { 200: ExperimentPage },
      },
    },
    async (request) => {
      const sessionId = await sessionOf(request.params.sid);
      const after = request.query.cursor === undefined ? undefined : decodeCursor(request.query.cursor, CURSOR_SORT).seq;
      const page = await experiments.list(sessionId, request.query.limit ?? 50, after);
      return { items: page.items, next_cursor: page.lastSeq === undefined ? null : encodeCursor({ sort: CURSOR_SORT, value: null, seq: page.lastSeq }) };
    },
  );

  app.get(
    '/sessions/:sid/experiments/:eid',
    {
      config: { errors: ['EXPERIMENT_NOT_FOUND'] },
      schema: {
        summary: 'An experiment with its counts by status, progress and (once a run is COMPLETE) its summary',
        tags,
        params: ExperimentParams,
        response: { 200: ExperimentDetail },
      },
    },
    async (request) => experiments.get(await sessionOf(request.params.sid), request.params.eid),
  );

  app.get(
    '/sessions/:sid/experiments/:eid/results',
    {
      config: { errors: ['EXPERIMENT_NOT_FOUND'] },
      validatorCompiler: queryValidatorCompiler,
      schema: {
        summary: 'One row per scenario (axis values, status, KPIs), streamed as JSON, CSV or XLSX',
        tags,
        params: ExperimentParams,
        querystring: Type.Object({
          format: Type.Optional(Type.Union(RESULT_FORMATS.map((f) => Type.Literal(f)), { description: 'json (default), csv or xlsx' })),
          style: Type.Optional(
            Type.Union(RESULT_STYLES.map((s) => Type.Literal(s)), {
              description: 'machine (default): the API names, values as stored; readable (csv, xlsx): labelled columns with units, rounded KPIs, repeat and seed',
            }),
          ),
        }),
        response: {
          200: {
            description: 'the results',
            content: {
              'application/json': { schema: Type.Unknown({ description: 'an array of { id, tag, status, axes, kpis }, one per scenario' }) },
              'text/csv': { schema: Type.String() },
              'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': { schema: Type.String({ format: 'binary' }) },
            },
          },
        },
      },
    },
    async (request, reply) => {
      const sessionId = await sessionOf(request.params.sid);
      const file = await experiments.results(sessionId, request.params.eid, request.query.format ?? 'json', request.query.style ?? 'machine');
      return reply.type(file.contentType).header('content-disposition', file.disposition).send(file.body);
    },
  );

  for (const action of ['run', 'cancel', 'reset'] as const) {
    app.post(
      `/sessions/:sid/experiments/:eid/${action}`,
      {
        // A scenario whose status forbids the action is skipped, not an error; the published plan's refuses the whole.
        config: { errors: ['EXPERIMENT_NOT_FOUND', 'PLAN_SCENARIO_PROTECTED'], audit: { action: `experiment.${action}` } },
        schema: {
          summary: `${action[0]!.toUpperCase()}${action.slice(1)} every scenario of the experiment (one transaction; each scenario by its own state rules)`,
          tags,
          params: ExperimentParams,
          response: { 200: BatchResult },
        },
      },
      async (request) => experiments.act(await sessionOf(request.params.sid), request.params.eid, action),
    );
  }

  app.delete(
    '/sessions/:sid/experiments/:eid',
    {
      config: { errors: ['EXPERIMENT_NOT_FOUND', 'PLAN_SCENARIO_PROTECTED'], audit: { action: 'experiment.delete' } },
      schema: {
        summary: 'Delete the experiment and all its scenarios (queued and running ones are cancelled)',
        tags,
        params: ExperimentParams,
        response: { 200: BatchResult },
      },
    },
    async (request) => experiments.delete(await sessionOf(request.params.sid), request.params.eid),
  );
};
