import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { actorOf } from '../../auth/actor.js';
import { CONTENT_TYPES } from '../../exports/dataset-export.js';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../../scenarios/list-page.js';
import { queryValidatorCompiler } from '../query-validator.js';
import { Nullable, SessionParams } from '../schemas.js';
import type { RouteOptions } from '../services.js';
import { MAX_COMPARED } from './compare.js';
import { GateReportSchema } from './gate-schemas.js';
import { ReportSchema, ReportSummarySchema } from './plan-schemas.js';
import { withRetryAfter } from './upload-bounds.js';

const tags = ['reports'];
const ReportParams = Type.Intersect([SessionParams, Type.Object({ rid: Type.String({ description: 'report id' }) })]);

const NewReport = Type.Object({
  title: Type.String({ minLength: 1, maxLength: 200 }),
  ids: Type.Array(Type.String({ minLength: 1 }), { minItems: 1, maxItems: MAX_COMPARED, description: 'the scenarios compared, in the order to show them' }),
  baseline: Type.Optional(Type.String({ minLength: 1, description: 'one of ids (default: the first)' })),
  note: Type.Optional(Type.String({ maxLength: 10_000 })),
});

/** `POST/GET /sessions/{sid}/reports`, `GET .../reports/{rid}[?format=xlsx]` (docs/api/plans-and-reports.md). */
export const reportRoutes: FastifyPluginAsyncTypebox<RouteOptions> = async (app, { services }) => {
  const { sessions, reports } = services;

  app.post(
    '/sessions/:sid/reports',
    {
      // Freezing draws every view: busy view threads and a scenario changed meanwhile refuse it (a failed view is kept as its error).
      config: { errors: ['SCENARIO_NOT_FOUND', 'SCENARIO_BUSY', 'CONFLICT', 'RESULT_NOT_READY', 'VIEW_BUSY'], audit: { action: 'report.create' } },
      schema: {
        summary: 'Freeze a comparison as a report: KPIs and deltas, parameters, inputs and every view, as rendered now',
        tags,
        params: SessionParams,
        body: NewReport,
        response: { 201: ReportSchema },
      },
    },
    async (request, reply) => {
      const session = await sessions.resolve(request.params.sid);
      const report = await reports.create(session.id, request.body, actorOf(request.principal)).catch((err: unknown) => withRetryAfter(reply, err));
      return reply.code(201).send(report);
    },
  );

  app.get(
    '/sessions/:sid/reports',
    {
      config: { errors: ['CURSOR_INVALID'] },
      // Query values arrive as text: `limit` is converted to its integer type before it is checked.
      validatorCompiler: queryValidatorCompiler,
      schema: {
        summary: "A page of the session's reports, in creation order (without their bodies)",
        tags,
        params: SessionParams,
        querystring: Type.Object({
          limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE, description: 'page size' })),
          cursor: Type.Optional(Type.String({ description: 'next_cursor of the previous page' })),
        }),
        response: {
          200: Type.Object({ items: Type.Array(ReportSummarySchema), next_cursor: Nullable(Type.String(), { description: 'null on the last page' }) }),
        },
      },
    },
    async (request) => {
      const session = await sessions.resolve(request.params.sid);
      return reports.page(session.id, request.query.limit ?? DEFAULT_PAGE_SIZE, request.query.cursor);
    },
  );

  app.get(
    '/sessions/:sid/reports/:rid',
    {
      config: { errors: ['REPORT_NOT_FOUND'] },
      schema: {
        summary: 'A report as saved (JSON: a comparison, or a gate with kind gate), or as a workbook (format=xlsx)',
        tags,
        params: ReportParams,
        querystring: Type.Object({
          format: Type.Optional(Type.Union([Type.Literal('json'), Type.Literal('xlsx')], { description: 'json (default), or xlsx: Summary, Parameters, Inputs, a sheet per table view, About' })),
        }),
        response: {
          200: {
            description: 'the report',
            content: {
              // A gate saved as a report has `kind: 'gate'` (docs/api/gates.md); a comparison's has no `kind`.
              'application/json': { schema: Type.Union([ReportSchema, GateReportSchema]) },
              [CONTENT_TYPES.xlsx]: { schema: Type.String({ format: 'binary' }) },
            },
          },
        },
      },
    },
    async (request, reply) => {
      const session = await sessions.resolve(request.params.sid);
      if (request.query.format === 'xlsx') {
        const file = await reports.xlsx(session.id, request.params.rid);
        // A stream: the reply's types know only the JSON form this route documents beside the workbook.
        return reply.type(file.contentType).header('content-disposition', file.disposition).send(file.body as unknown as string);
      }
      return reply.type('application/json; charset=utf-8').send(await reports.json(session.id, request.params.rid));
    },
  );
};
