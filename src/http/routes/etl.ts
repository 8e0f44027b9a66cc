import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { checkName } from '../../datasets/names.js';
import { stagingDir, UploadStaging } from '../../datasets/ingest/staging.js';
import type { StagedFile } from '../../datasets/ingest/tasks.js';
import { SessionParams } from '../schemas.js';
import type { RouteOptions } from '../services.js';
import { readMultipart, type MultipartLimits } from './etl-multipart.js';
import { clientGoneSignal, withRetryAfter } from './upload-bounds.js';
import { errors } from '../../error-factories.js';

const EtlMessage = Type.Object({
  severity: Type.Union([Type.Literal('info'), Type.Literal('warning'), Type.Literal('error')]),
  file: Type.Optional(Type.String()),
  table: Type.Optional(Type.String()),
  column: Type.Optional(Type.String()),
  row: Type.Optional(Type.Integer()),
  message: Type.String(),
});

export const EtlResult = Type.Object({
  dataset_name: Type.String(),
  success: Type.Boolean(),
  keys: Type.Array(Type.String()),
  messages: Type.Array(EtlMessage),
});

interface ReceivedUpload {
  readonly datasetName: string | undefined;
  readonly files: StagedFile[];
  readonly bytes: number;
}

/**
 * `POST .../etl`: multipart upload of `files` (one per schema group) and a `dataset_name`. Each file
 * streams to a staged file as it arrives; parsing, validation and storing run on the ingest workers.
 */
export const etlRoutes: FastifyPluginAsyncTypebox<RouteOptions> = async (app, { services }) => {
  const limit = services.settings.uploadLimitBytes;
  const dir = stagingDir(services.settings.dataDir);
  const limits: MultipartLimits = { fileSize: limit, files: 64, fields: 16, fieldSize: 1024 * 1024, parts: 100 };
  // The body is left unread here: the handler streams it through the multipart parser.
  app.addContentTypeParser('multipart/form-data', (_request, _payload, done) => done(null));

  app.post(
    '/sessions/:sid/etl',
    {
      // A form that cannot be read or names no dataset, files that cannot be read at all or break the
      // limits, every upload thread busy, a client gone before the end (BAD_INPUT).
      config: {
        errors: [
          'INVALID_REQUEST',
          'UPLOAD_EMPTY',
          'ETL_INPUT_INVALID',
          'ETL_SCHEMA_MISMATCH',
          'UPLOAD_STRUCTURE_LIMIT',
          'BAD_INPUT',
          'TOO_LARGE',
          'UPLOAD_TIME_LIMIT',
          'UPLOAD_BUSY',
        ],
        audit: { action: 'dataset.upload' },
      },
      schema: {
        summary: 'Upload files through the ETL pipeline into a dataset',
        tags: ['datasets'],
        params: SessionParams,
        consumes: ['multipart/form-data'],
        response: { 200: EtlResult },
      },
    },
    async (request, reply) => {
      const session = await services.sessions.resolve(request.params.sid);
      if (!(request.headers['content-type'] ?? '').toLowerCase().startsWith('multipart/form-data')) {
        throw errors.notMultipart();
      }
      const staging = new UploadStaging(dir);
      try {
        const { datasetName, files, bytes } = await receive(request, staging, limits);
        services.metrics.etlBytes.inc(bytes);
        if (datasetName === undefined || datasetName === '') {
          throw errors.uploadDatasetNameMissing();
        }
        checkName(datasetName, 'dataset_name');
        if (files.length === 0) throw errors.uploadEmpty();
        const result = await services.datasets.etlStaged(session.id, datasetName, files, clientGoneSignal(reply)).catch((err: unknown) => withRetryAfter(reply, err));
        services.metrics.etlRows.inc(result.rows);
        return result;
      } finally {
        await staging.removeAll();
      }
    },
  );
};

/** Reads the parts, staging each file as it arrives; the files together stay under the upload limit. */
async function receive(request: FastifyRequest, staging: UploadStaging, limits: MultipartLimits): Promise<ReceivedUpload> {
  let datasetName: string | undefined;
  const files: StagedFile[] = [];
  let total = 0;
  await readMultipart(request.raw, limits, {
    file: async (fieldname, filename, stream) => {
      if (fieldname !== 'files') throw errors.uploadFieldUnexpected(fieldname);
      // Files are staged in the order they arrive; the list keeps that order for messages.
      const slot = files.push({ filename, path: '' }) - 1;
      const staged = await staging.stage(stream, limits.fileSize - total, () => errors.uploadTooLarge(limits.fileSize));
      total += staged.bytes;
      if (total > limits.fileSize) throw errors.uploadTooLarge(limits.fileSize);
      files[slot] = { filename, path: staged.path };
    },
    field: (fieldname, value) => {
      if (fieldname === 'dataset_name') datasetName = value;
      else if (fieldname === 'files') throw errors.uploadWithoutFilename();
    },
  });
  return { datasetName, files, bytes: total };
}
