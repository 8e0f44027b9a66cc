import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { CONTENT_TYPES } from '../../exports/dataset-export.js';
import { exportResultTable, type ResultRows } from '../../exports/result-export.js';
import { isExternal } from '../../domain/external-algorithm.js';
import { SessionParams } from '../schemas.js';
import { withRetryAfter } from './upload-bounds.js';
import type { RouteOptions } from '../services.js';
import { errors } from '../../error-factories.js';

const ScenarioParams = Type.Intersect([SessionParams, Type.Object({ id: Type.String({ description: 'scenario id' }) })]);

/**
 * `GET /sessions/{sid}/scenarios/{id}/result?format=json|csv|xlsx`: a COMPLETE scenario's result alone;
 * CSV and XLSX write the result's first table view.
 */
export const resultRoutes: FastifyPluginAsyncTypebox<RouteOptions> = async (app, { services }) => {
  const { sessions, scenarios, domain, views } = services;

  /** The first table view's rows (drawn off this thread); else the deprecated `resultTable`; else 400. */
  async function resultRows(sessionId: string, id: string, algoName: string, resultJson: string): Promise<ResultRows> {
    const table = await views.resultTable(sessionId, id);
    if (table) return table;
    const algorithm = domain.algorithm(algoName);
    // An external algorithm has no `resultTable`: it returns JSON only, drawn by the domain's views.
    if (!algorithm || isExternal(algorithm) || !algorithm.resultTable) throw errors.resultNotTabular(algoName);
    // Deprecated, kept for domains written before views.
    const legacy = algorithm.resultTable(JSON.parse(resultJson));
    return { columns: legacy.columns.map((name) => ({ name, type: 'string' as const })), rows: legacy.rows };
  }

  app.get(
    '/sessions/:sid/scenarios/:id/result',
    {
      // CSV and XLSX draw the first table view: its failures, busy threads and races are a view's.
      config: { errors: ['SCENARIO_NOT_FOUND', 'RESULT_NOT_READY', 'RESULT_NOT_TABULAR', 'SCENARIO_BUSY', 'CONFLICT', 'VIEW_ERROR', 'VIEW_BUSY'] },
      schema: {
        summary: "A COMPLETE scenario's result, as JSON or (through its first table view) CSV or XLSX",
        tags: ['scenarios'],
        params: ScenarioParams,
        querystring: Type.Object({
          format: Type.Optional(
            Type.Union([Type.Literal('json'), Type.Literal('csv'), Type.Literal('xlsx')], { description: "json (default); csv or xlsx: the result's first table view" }),
          ),
        }),
        response: {
          200: {
            description: 'the result',
            content: {
              'application/json': { schema: Type.Unknown({ description: 'what the algorithm returned' }) },
              'text/csv': { schema: Type.String({ description: "the result's first table view" }) },
              [CONTENT_TYPES.xlsx]: { schema: Type.String({ format: 'binary', description: "the result's first table view, one sheet" }) },
            },
          },
        },
      },
    },
    async (request, reply) => {
      const session = await sessions.resolve(request.params.sid);
      const record = await scenarios.record({ sessionId: session.id, id: request.params.id });
      if (record.status !== 'COMPLETE' || record.resultJson === null) {
        throw errors.resultNotReady(record.id, record.status);
      }
      const format = request.query.format;
      if (format === 'csv' || format === 'xlsx') {
        const rows = await resultRows(session.id, record.id, record.algoName, record.resultJson).catch((err: unknown) => withRetryAfter(reply, err));
        const file = exportResultTable(rows, record.tag, format);
        return reply.type(file.contentType).header('content-disposition', file.disposition).send(file.body);
      }
      return reply.type('application/json; charset=utf-8').send(record.resultJson);
    },
  );
};
