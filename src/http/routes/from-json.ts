import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { stagingDir, UploadStaging } from '../../datasets/ingest/staging.js';
import { KeyList, SessionParams } from '../schemas.js';
import type { RouteOptions } from '../services.js';
import { clientGoneSignal, withRetryAfter } from './upload-bounds.js';
import { errors } from '../../error-factories.js';

/**
 * `POST .../data/from-json` takes the raw JSON form with no envelope, whatever its root and content
 * type. The body is not parsed here: it streams to a staged file (up to the body limit) and the ingest
 * workers parse, check and store it, so a large body never occupies the HTTP thread.
 */
export const fromJsonRoutes: FastifyPluginAsyncTypebox<RouteOptions> = async (app, { services }) => {
  const limit = services.settings.bodyLimitBytes;
  const dir = stagingDir(services.settings.dataDir);
  app.removeAllContentTypeParsers();
  // Leaves the body unread; the handler streams `request.raw` itself.
  app.addContentTypeParser('*', (_request, _payload, done) => done(null));

  app.post(
    '/sessions/:sid/data/from-json',
    {
      // Parsed by the ingest workers, not by Fastify: the body's own failures, its limits, busy threads,
      // a client gone before the end (BAD_INPUT); the data source's decode() may refuse with BAD_INPUT.
      config: { errors: ['BODY_EMPTY', 'BODY_MALFORMED', 'DATASET_FORM_INVALID', 'UPLOAD_STRUCTURE_LIMIT', 'BAD_INPUT', 'TOO_LARGE', 'UPLOAD_TIME_LIMIT', 'UPLOAD_BUSY'], audit: { action: 'dataset.ingest' } },
      schema: {
        summary: 'Register a dataset from its JSON form',
        tags: ['datasets'],
        params: SessionParams,
        consumes: ['application/json'],
        body: Type.Unknown({ description: "the dataset's JSON form, as returned by GET .../data/{key}" }),
        response: { 201: KeyList },
      },
    },
    async (request, reply) => {
      const declared = Number(request.headers['content-length']);
      if (declared > limit) throw errors.jsonFormTooLarge();
      const session = await services.sessions.resolve(request.params.sid);
      const staging = new UploadStaging(dir);
      try {
        const { path } = await staging.stage(request.raw, limit, errors.jsonFormTooLarge);

        const keys = await services.datasets.ingestStaged(session.id, path, clientGoneSignal(reply)).catch((err: unknown) => withRetryAfter(reply, err));
        return reply.code(201).send({ keys });
      } finally {
        await staging.removeAll();
      }
    },
  );
};
