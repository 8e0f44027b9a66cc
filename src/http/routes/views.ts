import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyReply } from 'fastify';
import type { ErrorCode } from '../../errors.js';
import { MAX_COMPARED_VIEWS, MIN_COMPARED_VIEWS } from '../../views/view-service.js';
import { SessionParams } from '../schemas.js';
import { withRetryAfter } from './upload-bounds.js';
import type { RouteOptions } from '../services.js';
import { ViewBodySchema, ViewListSchema, ViewPageQuery } from './view-schemas.js';

const tags = ['views'];
const ViewName = { name: Type.String({ description: 'the view name, as the list gives it' }) };
const ScenarioParams = Type.Intersect([SessionParams, Type.Object({ id: Type.String({ description: 'scenario id' }) })]);
const DatasetParams = Type.Intersect([SessionParams, Type.Object({ key: Type.String({ description: 'dataset key' }) })]);
/**
 * What drawing a view can answer: its name unknown (NOT_FOUND), the scenarios not COMPLETE, or changed
 * (SCENARIO_BUSY) or their dataset replaced (CONFLICT) while it was drawn, a bad page cursor, the view
 * failing or every view thread busy.
 */
const DRAWING: readonly ErrorCode[] = ['NOT_FOUND', 'RESULT_NOT_READY', 'SCENARIO_BUSY', 'CONFLICT', 'CURSOR_INVALID', 'VIEW_ERROR', 'VIEW_BUSY'];
const Baseline = {
  baseline: Type.Optional(
    Type.String({ description: "the compared scenario the view measures the others against (default, as compare's: the session's published plan when it is compared, else the one the others were all branched from, else the first id)" }),
  ),
};
const Ids = { ids: Type.String({ description: `comma-separated ids of ${MIN_COMPARED_VIEWS} to ${MAX_COMPARED_VIEWS} COMPLETE scenarios of one result type` }) };

/** Sent as text: a large page skips the schema serializer, which would only copy it (the schema documents it). */
function sendJson(reply: FastifyReply, body: unknown) {
  return reply.type('application/json; charset=utf-8').send(JSON.stringify(body));
}

/**
 * The domain's views: of a scenario's result, of a dataset, and of 2-6 compared results. Each list says
 * which apply; each render draws one in a worker thread (cached by what it drew from) with its table paged.
 */
export const viewRoutes: FastifyPluginAsyncTypebox<RouteOptions> = async (app, { services }) => {
  const { sessions, views } = services;

  app.get(
    '/sessions/:sid/scenarios/:id/views',
    {
      config: { errors: ['SCENARIO_NOT_FOUND'] },
      schema: {
        summary: "The result views that apply to this scenario's algorithm (whatever its status)",
        tags,
        params: ScenarioParams,
        response: { 200: ViewListSchema },
      },
    },
    async (request) => {
      const session = await sessions.resolve(request.params.sid);
      return { items: await views.scenarioViews(session.id, request.params.id) };
    },
  );

  app.get(
    '/sessions/:sid/scenarios/:id/views/:name',
    {
      config: { errors: ['SCENARIO_NOT_FOUND', ...DRAWING] },
      schema: {
        summary: "One result view of a COMPLETE scenario, drawn (a table's rows paged with limit, cursor and sort)",
        tags,
        params: Type.Intersect([ScenarioParams, Type.Object(ViewName)]),
        querystring: ViewPageQuery,
        response: { 200: ViewBodySchema },
      },
    },
    async (request, reply) => {
      const session = await sessions.resolve(request.params.sid);
      return sendJson(reply, await views.scenarioView(session.id, request.params.id, request.params.name, request.query).catch((err: unknown) => withRetryAfter(reply, err)));
    },
  );

  app.get(
    '/sessions/:sid/data/:key/views',
    {
      config: { errors: ['DATASET_NOT_FOUND'] },
      schema: { summary: 'The dataset views of the domain', tags, params: DatasetParams, response: { 200: ViewListSchema } },
    },
    async (request) => {
      const session = await sessions.resolve(request.params.sid);
      return { items: await views.datasetViews(session.id, request.params.key) };
    },
  );

  app.get(
    '/sessions/:sid/data/:key/views/:name',
    {
      config: { errors: ['DATASET_NOT_FOUND', ...DRAWING] },
      schema: {
        summary: 'One dataset view, drawn (a table paged with limit, cursor and sort)',
        tags,
        params: Type.Intersect([DatasetParams, Type.Object(ViewName)]),
        querystring: ViewPageQuery,
        response: { 200: ViewBodySchema },
      },
    },
    async (request, reply) => {
      const session = await sessions.resolve(request.params.sid);
      return sendJson(reply, await views.datasetView(session.id, request.params.key, request.params.name, request.query).catch((err: unknown) => withRetryAfter(reply, err)));
    },
  );

  app.get(
    '/sessions/:sid/compare/views',
    {
      config: { errors: ['SCENARIO_NOT_FOUND', 'RESULT_NOT_READY'] },
      schema: {
        summary: 'The comparison views that apply to these scenarios (all COMPLETE, one result type)',
        tags,
        params: SessionParams,
        querystring: Type.Object(Ids),
        response: { 200: ViewListSchema },
      },
    },
    async (request) => {
      const session = await sessions.resolve(request.params.sid);
      return { items: await views.comparisonViews(session.id, request.query.ids) };
    },
  );

  app.get(
    '/sessions/:sid/compare/views/:name',
    {
      config: { errors: ['SCENARIO_NOT_FOUND', ...DRAWING] },
      schema: {
        summary: 'One comparison view of these scenarios, drawn',
        tags,
        params: Type.Intersect([SessionParams, Type.Object(ViewName)]),
        querystring: Type.Intersect([Type.Object({ ...Ids, ...Baseline }), ViewPageQuery]),
        response: { 200: ViewBodySchema },
      },
    },
    async (request, reply) => {
      const session = await sessions.resolve(request.params.sid);
      const { ids, baseline, ...page } = request.query;
      return sendJson(reply, await views.comparisonView(session.id, ids, request.params.name, page, baseline).catch((err: unknown) => withRetryAfter(reply, err)));
    },
  );
};
