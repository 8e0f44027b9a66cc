import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { basename } from 'node:path';
import { checkName } from '../../datasets/names.js';
import { errors } from '../../error-factories.js';
import { SessionParams } from '../schemas.js';
import type { RouteOptions } from '../services.js';
import { EtlResult } from './etl.js';
import { withRetryAfter } from './upload-bounds.js';

const SampleItem = Type.Object({
  dataset_name: Type.String({ description: 'the name the sample is loaded under unless the load names another' }),
  files: Type.Array(Type.String(), { description: 'its files, one per schema group, as an upload would name them' }),
});

const LoadBody = Type.Object(
  { dataset_name: Type.Optional(Type.String({ description: "the dataset to load it into; the sample's own name when absent" })) },
  { additionalProperties: false },
);

/**
 * The domain's sample data (its definition's `seed`, which also fills a new `main` session), for any
 * session: listed, and loaded through the same ETL as an upload of its files (the ingest workers, the
 * same report, the same replacement of a dataset of that name), so a planner can try the dashboard on
 * it without finding the files.
 */
export const sampleRoutes: FastifyPluginAsyncTypebox<RouteOptions> = async (app, { services }) => {
  const { sessions, domain, datasets } = services;
  const seed = domain.domain.seed;

  app.get(
    '/sessions/:sid/samples',
    {
      config: { errors: [] },
      schema: {
        summary: 'The sample data the domain ships (none, or one dataset)',
        tags: ['datasets'],
        params: SessionParams,
        response: { 200: Type.Object({ items: Type.Array(SampleItem) }) },
      },
    },
    async (request) => {
      await sessions.resolve(request.params.sid);
      return { items: seed ? [{ dataset_name: seed.datasetKey, files: seed.files.map((f) => basename(f)) }] : [] };
    },
  );

  app.post(
    '/sessions/:sid/samples/load',
    {
      // A domain without samples; what an upload of the same files can answer: files its ETL cannot read
      // (a domain's broken samples), the upload time limit, every upload thread busy.
      config: {
        errors: ['NOT_FOUND', 'ETL_INPUT_INVALID', 'ETL_SCHEMA_MISMATCH', 'UPLOAD_STRUCTURE_LIMIT', 'UPLOAD_TIME_LIMIT', 'UPLOAD_BUSY'],
        audit: { action: 'dataset.load-sample' },
      },
      schema: {
        summary: "Load the domain's sample data into a dataset, through the ETL",
        description: 'As `POST .../etl` with the sample\'s files: the same report, and a dataset of that name is replaced.',
        tags: ['datasets'],
        params: SessionParams,
        body: LoadBody,
        response: { 200: EtlResult },
      },
    },
    async (request, reply) => {
      const session = await sessions.resolve(request.params.sid);
      if (!seed) throw errors.samplesNotDeclared(domain.domain.name);
      const name = request.body.dataset_name ?? seed.datasetKey;
      checkName(name, 'dataset_name');
      // The files are read where they lie (nothing to stage): the ingest task only reads them.
      const files = seed.files.map((path) => ({ filename: basename(path), path }));
      return datasets.etlStaged(session.id, name, files).catch((err: unknown) => withRetryAfter(reply, err));
    },
  );
};
