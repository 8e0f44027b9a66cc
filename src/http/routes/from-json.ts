import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { badInput } from '../../errors.js';
import { errorResponses, KeyList, SessionParams } from '../schemas.js';
import { LARGE_BODY, relieveMemorySoon } from '../memory-relief.js';
import type { RouteOptions } from '../services.js';

/**
 * `POST .../data/from-json` takes the raw JSON form with no envelope, whatever its root and content
 * type, so this scope reads every body as text and parses it itself (empty or malformed → 400).
 */
export const fromJsonRoutes: FastifyPluginAsyncTypebox<RouteOptions> = async (app, { services }) => {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, body));

  app.post(
    '/sessions/:sid/data/from-json',
    {
      schema: {
        summary: 'Register a dataset from its JSON form',
        tags: ['datasets'],
        params: SessionParams,
        consumes: ['application/json'],
        body: Type.Unknown({ description: "the dataset's JSON form, as returned by GET .../data/{key}" }),
        response: { 201: KeyList, ...errorResponses(400, 404, 413) },
      },
    },
    async (request, reply) => {
      const session = await services.sessions.resolve(request.params.sid);
      const text = typeof request.body === 'string' ? request.body : '';
      if (text.length > LARGE_BODY) relieveMemorySoon();
      if (text.trim() === '') throw badInput('the request body is empty; send the JSON form of a dataset');
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch (err) {
        throw badInput(`the request body is not valid JSON: ${(err as Error).message}`);
      }
      return reply.code(201).send({ keys: await services.datasets.ingest(session.id, json) });
    },
  );
};
