import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses, KeyList, Name, ParameterSchema, SessionParams } from '../schemas.js';
import type { RouteOptions } from '../services.js';

const tags = ['datasets'];
const KeyParams = Type.Intersect([SessionParams, Type.Object({ key: Type.String() })]);

export const datasetRoutes: FastifyPluginAsyncTypebox<RouteOptions> = async (app, { services }) => {
  const { sessions, datasets } = services;

  app.get(
    '/sessions/:sid/data',
    { schema: { summary: 'List dataset keys', tags, params: SessionParams, response: { 200: KeyList, ...errorResponses(404) } } },
    async (request) => {
      const session = await sessions.resolve(request.params.sid);
      return { keys: await datasets.listKeys(session.id) };
    },
  );

  app.get(
    '/sessions/:sid/data/:key',
    {
      schema: {
        summary: "A dataset's JSON form",
        tags,
        params: KeyParams,
        response: { 200: Type.Unknown({ description: 'the JSON form produced by the data source' }), ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      const session = await sessions.resolve(request.params.sid);
      // Sent as stored text: no parse and re-serialise of large datasets.
      const form = await datasets.jsonForm(session.id, request.params.key);
      return reply.type('application/json; charset=utf-8').send(form);
    },
  );

  app.delete(
    '/sessions/:sid/data/:key',
    { schema: { summary: 'Delete a dataset', tags, params: KeyParams, response: { 204: Type.Null(), ...errorResponses(404, 409) } } },
    async (request, reply) => {
      const session = await sessions.resolve(request.params.sid);
      await datasets.delete(session.id, request.params.key);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/sessions/:sid/data/:key/derive',
    {
      schema: {
        summary: 'Derive a new dataset from this one',
        tags,
        params: KeyParams,
        body: Type.Object({ new_key: Name }),
        response: { 201: KeyList, ...errorResponses(400, 404, 409, 422) },
      },
    },
    async (request, reply) => {
      const session = await sessions.resolve(request.params.sid);
      return reply.code(201).send({ keys: await datasets.derive(session.id, request.params.key, request.body.new_key) });
    },
  );

  app.get(
    '/sessions/:sid/data/:key/parameters',
    {
      schema: {
        summary: "Describe the data source's parameters",
        tags,
        params: KeyParams,
        response: { 200: ParameterSchema, ...errorResponses(404) },
      },
    },
    async (request) => {
      const session = await sessions.resolve(request.params.sid);
      return datasets.parameters(session.id, request.params.key);
    },
  );
};
