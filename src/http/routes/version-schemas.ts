import { Type } from '@fastify/type-provider-typebox';
import { Nullable } from '../schemas.js';

/** Wire schemas of dataset versions and stale marks (docs/api/cycles.md). */

export const StaleMarkSchema = Nullable(
  Type.Object(
    {
      dataset: Type.String({ description: 'the dataset that moved: this one or the nearest ancestor' }),
      from_version: Type.Integer({ description: 'the version it was computed or derived on' }),
      to_version: Type.Integer({ description: 'its current version' }),
    },
    { title: 'StaleMark' },
  ),
  { description: 'null when computed on the current version of its dataset and of each ancestor; else which dataset moved (docs/api/cycles.md)' },
);

export const DatasetVersionNo = Type.Integer({ minimum: 1, description: 'a version number of the key (1, 2, 3 ...)' });

/**
 * `?version=N` of the dataset routes: a whole number from 1 written as one, else 400 QUERY_INVALID. A
 * pattern, not an integer schema: the query converter would read `1.5` as 1 and serve another version.
 */
export const VersionQueryField = Type.Optional(
  Type.String({ pattern: '^[1-9][0-9]{0,8}$', description: 'read this version of the dataset, a whole number from 1 (GET .../versions lists them); the current one when absent' }),
);

export const DatasetVersionList = Type.Object(
  {
    versions: Type.Array(
      Type.Object({
        version: DatasetVersionNo,
        created_at: Type.String({ format: 'date-time' }),
        created_by: Nullable(Type.String(), { description: 'who wrote it, as the audit trail names them; null for the start-up seed' }),
        current: Type.Boolean(),
        tables: Type.Array(Type.Object({ name: Type.String(), rows: Type.Integer(), hash: Type.String({ description: 'SHA-256 of the table content' }) })),
      }),
      { description: 'newest first' },
    ),
  },
  { title: 'Dataset versions' },
);
