import multipart from '@fastify/multipart';
import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { FastifyRequest } from 'fastify';
import { badInput, invalidRequest, ScenaristError } from '../../errors.js';
import { checkName } from '../../datasets/names.js';
import { stagingDir, UploadStaging } from '../../datasets/ingest/staging.js';
import type { StagedFile } from '../../datasets/ingest/tasks.js';
import { errorResponses, SessionParams } from '../schemas.js';
import type { RouteOptions } from '../services.js';

const EtlMessage = Type.Object({
  severity: Type.Union([Type.Literal('info'), Type.Literal('warning'), Type.Literal('error')]),
  file: Type.Optional(Type.String()),
  table: Type.Optional(Type.String()),
  column: Type.Optional(Type.String()),
  row: Type.Optional(Type.Integer()),
  message: Type.String(),
});

const EtlResult = Type.Object({
  dataset_name: Type.String(),
  success: Type.Boolean(),
  keys: Type.Array(Type.String()),
  messages: Type.Array(EtlMessage),
});

interface ReceivedUpload {
  readonly datasetName: string | undefined;
  readonly files: StagedFile[];
}

/**
 * `POST .../etl`: multipart upload of `files` (one per schema group) and a `dataset_name`. Each file
 * streams to a staged file as it arrives; parsing, validation and storing run on the ingest workers.
 */
export const etlRoutes: FastifyPluginAsyncTypebox<RouteOptions> = async (app, { services }) => {
  const limit = services.settings.uploadLimitBytes;
  const dir = stagingDir(services.settings.dataDir);
  await app.register(multipart, { limits: { fileSize: limit, files: 64, fields: 16, fieldSize: 1024 * 1024, parts: 100 } });

  app.post(
    '/sessions/:sid/etl',
    {
      schema: {
        summary: 'Upload files through the ETL pipeline into a dataset',
        tags: ['datasets'],
        params: SessionParams,
        consumes: ['multipart/form-data'],
        response: { 200: EtlResult, ...errorResponses(400, 404, 413, 422) },
      },
    },
    async (request) => {
      const session = await services.sessions.resolve(request.params.sid);
      if (!request.isMultipart()) throw badInput('send the upload as multipart/form-data with files and dataset_name');
      const staging = new UploadStaging(dir);
      try {
        const { datasetName, files } = await receive(request, staging, limit);
        if (datasetName === undefined || datasetName === '') {
          throw invalidRequest('dataset_name is required', [{ path: 'dataset_name', message: 'is required and must not be empty' }]);
        }
        try {
          checkName(datasetName, 'dataset_name');
        } catch (err) {
          throw invalidRequest((err as Error).message, [{ path: 'dataset_name', message: (err as Error).message }]);
        }
        if (files.length === 0) throw badInput('no file uploaded; send one or more files under files');
        return await services.datasets.etlStaged(session.id, datasetName, files);
      } finally {
        await staging.removeAll();
      }
    },
  );
};

/** Reads the parts, staging each file; a body the multipart parser cannot read is a 400. */
async function receive(request: FastifyRequest, staging: UploadStaging, limit: number): Promise<ReceivedUpload> {
  let datasetName: string | undefined;
  const files: StagedFile[] = [];
  let total = 0;
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        if (part.fieldname !== 'files') throw badInput(`unexpected file field '${part.fieldname}'; upload files under 'files'`);
        const staged = await staging.stage(part.file, limit - total, `the upload is larger than the limit of ${limit} bytes`);
        total += staged.bytes;
        files.push({ filename: part.filename, path: staged.path });
      } else if (part.fieldname === 'dataset_name') {
        datasetName = typeof part.value === 'string' ? part.value : String(part.value);
      } else if (part.fieldname === 'files') {
        throw badInput('an upload in files has no filename');
      }
    }
  } catch (err) {
    throw asMultipartError(err);
  }
  return { datasetName, files };
}

/**
 * Our own errors and Fastify's 4xx pass as they are; a file system error is the server's; anything
 * else came from the multipart parser reading a malformed body (no boundary, cut off, bad headers).
 */
function asMultipartError(err: unknown): unknown {
  if (err instanceof ScenaristError) return err;
  const { statusCode, syscall } = err as { statusCode?: unknown; syscall?: unknown };
  if (typeof statusCode === 'number' || typeof syscall === 'string' || !(err instanceof Error)) return err;
  return badInput(`the multipart body cannot be read: ${err.message}`);
}
