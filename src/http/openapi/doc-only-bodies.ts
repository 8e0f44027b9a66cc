import { Type, type TSchema } from '@sinclair/typebox';
import { routeKey } from './operation-ids.js';
import { DeriveBody } from '../schemas.js';

/**
 * Request bodies that the OpenAPI document shows but Fastify must not validate (whole, or in part): a
 * multipart upload is read as a stream by its handler, so it has no `body` schema on the route; a
 * derive's `edits` are checked by the service against the dataset's tables, which reports every
 * problem of every edit at once.
 */
const EtlUpload = Type.Object(
  {
    files: Type.Array(Type.String({ format: 'binary' }), {
      description: 'one file per schema group, named <group>.<ext> (csv, json, xlsx, or a zip of them)',
    }),
    dataset_name: Type.String({ description: 'the key to store the dataset under' }),
  },
  { description: 'multipart/form-data' },
);

const DOC_ONLY_BODIES: Readonly<Record<string, TSchema>> = {
  'POST /sessions/{}/etl': EtlUpload,
  'POST /sessions/{}/data/{}/derive': DeriveBody,
};

export function docOnlyBody(method: string, path: string): TSchema | undefined {
  return DOC_ONLY_BODIES[routeKey(method, path)];
}
