import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { conflict, notFound } from '../../errors.js';
import { exportResultCsv } from '../../exports/result-export.js';
import { errorResponses, SessionParams } from '../schemas.js';
import type { RouteOptions } from '../services.js';

const ScenarioParams = Type.Intersect([SessionParams, Type.Object({ id: Type.String({ description: 'scenario id' }) })]);

/** `GET /sessions/{sid}/scenarios/{id}/result?format=json|csv`: a COMPLETE scenario's result alone. */
export const resultRoutes: FastifyPluginAsyncTypebox<RouteOptions> = async (app, { services }) => {
  const { sessions, store, domain } = services;

  app.get(
    '/sessions/:sid/scenarios/:id/result',
    {
      schema: {
        summary: "A COMPLETE scenario's result, as JSON or (where the algorithm declares a table view) CSV",
        tags: ['scenarios'],
        params: ScenarioParams,
        querystring: Type.Object({
          format: Type.Optional(Type.Union([Type.Literal('json'), Type.Literal('csv')], { description: 'json (default) or csv' })),
        }),
        response: {
          200: {
            description: 'the result',
            content: {
              'application/json': { schema: Type.Unknown({ description: 'what the algorithm returned' }) },
              'text/csv': { schema: Type.String({ description: "the algorithm's table view of the result" }) },
            },
          },
          ...errorResponses(400, 404, 409),
        },
      },
    },
    async (request, reply) => {
      const session = await sessions.resolve(request.params.sid);
      const record = await store.scenarios.get({ sessionId: session.id, id: request.params.id });
      if (!record) throw notFound(`scenario '${request.params.id}' not found`, 'SCENARIO_NOT_FOUND');
      if (record.status !== 'COMPLETE' || record.resultJson === null) {
        throw conflict(`scenario '${record.id}' is ${record.status}; it has a result once COMPLETE`, 'RESULT_NOT_READY');
      }
      if (request.query.format === 'csv') {
        const file = exportResultCsv(domain.algorithm(record.algoName), record.algoName, JSON.parse(record.resultJson), record.tag);
        return reply.type(file.contentType).header('content-disposition', file.disposition).send(file.body);
      }
      return reply.type('application/json; charset=utf-8').send(record.resultJson);
    },
  );
};
