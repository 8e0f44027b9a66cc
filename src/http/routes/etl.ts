import multipart from '@fastify/multipart';
import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { badInput, invalidRequest } from '../../errors.js';
import { checkName } from '../../datasets/names.js';
import type { UploadedFile } from '../../datasets/etl/index.js';
import { errorResponses, SessionParams } from '../schemas.js';
import { LARGE_BODY, relieveMemorySoon } from '../memory-relief.js';
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

/** `POST .../etl`: multipart upload of `files` (one per schema group) and a `dataset_name`. */
export const etlRoutes: FastifyPluginAsyncTypebox<RouteOptions> = async (app, { services }) => {
  const limit = services.settings.uploadLimitBytes;
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
      let datasetName: string | undefined;
      const files: UploadedFile[] = [];
      let total = 0;
      for await (const part of request.parts()) {
        if (part.type === 'file') {
          if (part.fieldname !== 'files') throw badInput(`unexpected file field '${part.fieldname}'; upload files under 'files'`);
          const data = await part.toBuffer();
          total += data.length;
          if (total > limit) throw Object.assign(new Error('upload too large'), { statusCode: 413, code: 'FST_REQ_FILE_TOO_LARGE' });
          files.push({ filename: part.filename, data });
        } else if (part.fieldname === 'dataset_name') {
          datasetName = typeof part.value === 'string' ? part.value : String(part.value);
        } else if (part.fieldname === 'files') {
          throw badInput('an upload in files has no filename');
        }
      }
      if (datasetName === undefined || datasetName === '') {
        throw invalidRequest('dataset_name is required', [{ path: 'dataset_name', message: 'is required and must not be empty' }]);
      }
      try {
        checkName(datasetName, 'dataset_name');
      } catch (err) {
        throw invalidRequest((err as Error).message, [{ path: 'dataset_name', message: (err as Error).message }]);
      }
      if (files.length === 0) throw badInput('no file uploaded; send one or more files under files');
      if (total > LARGE_BODY) relieveMemorySoon();
      return services.datasets.etl(session.id, datasetName, files);
    },
  );
};
