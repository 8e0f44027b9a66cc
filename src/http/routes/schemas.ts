import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Readable } from 'node:stream';
import { COLUMN_TYPES } from '../../domain/dataset-model.js';
import { emptyGroupDataset, listSchemas } from '../../datasets/schema-listing.js';
import { attachment } from '../../exports/content-disposition.js';
import { CONTENT_TYPES, exportDataset } from '../../exports/dataset-export.js';
import { Nullable, SessionParams } from '../schemas.js';
import type { RouteOptions } from '../services.js';
import { errors } from '../../error-factories.js';

const tags = ['discovery'];

const SchemaColumn = Type.Object({
  name: Type.String(),
  type: Type.Union(COLUMN_TYPES.map((t) => Type.Literal(t))),
  required: Type.Boolean({ description: 'whether the file must have the column; an optional one takes its default when absent' }),
  nullable: Type.Boolean({ description: 'whether its cells may be empty' }),
  key: Type.Union([Type.Literal('primary'), Type.Literal('unique'), Type.Null()]),
  unit: Nullable(Type.String()),
  description: Nullable(Type.String()),
});

const SchemaGroupItem = Type.Object({
  name: Type.String({ description: 'the schema group; an upload names its file after it' }),
  description: Nullable(Type.String()),
  required: Type.Boolean({ description: 'whether an upload must include this group’s file' }),
  file_names: Type.Array(Type.String(), { description: 'the names the group’s file may have, one per readable format' }),
  tables: Type.Array(Type.Object({ name: Type.String(), description: Nullable(Type.String()), columns: Type.Array(SchemaColumn) })),
});

const GroupParams = Type.Intersect([SessionParams, Type.Object({ group: Type.String() })]);
const TemplateQuery = Type.Object({
  format: Type.Optional(Type.Union([Type.Literal('csv'), Type.Literal('xlsx')], { description: 'csv (default; one-table groups) or xlsx' })),
});

/**
 * The upload's schema, discoverable as algorithms are: what each file must hold, and a template per
 * group (the header row only) that the ETL route takes back unchanged as an empty dataset.
 */
export const schemaRoutes: FastifyPluginAsyncTypebox<RouteOptions> = async (app, { services }) => {
  const { sessions, domain } = services;
  const schemas = domain.domain.schemas;

  app.get(
    '/sessions/:sid/schemas',
    {
      config: { errors: [] },
      schema: {
        summary: 'List the schema groups an upload fills: file names, tables and columns',
        tags,
        params: SessionParams,
        response: { 200: Type.Object({ items: Type.Array(SchemaGroupItem) }) },
      },
    },
    async (request) => {
      await sessions.resolve(request.params.sid);
      return { items: listSchemas(schemas) };
    },
  );

  app.get(
    '/sessions/:sid/schemas/:group/template',
    {
      // An unknown group has no code of its own; csv for a group of several tables is a QUERY_INVALID.
      config: { errors: ['NOT_FOUND'] },
      schema: {
        summary: "A schema group's template file: its header row (CSV) or one sheet per table (XLSX)",
        description: 'Uploaded unchanged through `POST .../etl`, a template gives an empty dataset. CSV holds one table: a group of several tables has an XLSX template only.',
        tags,
        params: GroupParams,
        querystring: TemplateQuery,
        response: {
          200: {
            description: 'the template',
            content: {
              // Described as text and binary; sent as the stream the export writers produce.
              'text/csv': { schema: Type.Unsafe<Readable>({ type: 'string', description: 'format=csv: the header row' }) },
              [CONTENT_TYPES.xlsx]: { schema: Type.Unsafe<Readable>({ type: 'string', format: 'binary', description: 'format=xlsx' }) },
            },
          },
        },
      },
    },
    async (request, reply) => {
      await sessions.resolve(request.params.sid);
      const { group } = request.params;
      const format = request.query.format ?? 'csv';
      const empty = emptyGroupDataset(schemas, group);
      if (!empty) throw errors.schemaGroupNotFound(group, Object.keys(schemas));
      const tables = Object.keys(empty.tables);
      if (format === 'csv' && tables.length !== 1) {
        throw errors.schemaGroupNotOneTable(group, tables);
      }
      const file = exportDataset(empty, format, format === 'csv' ? tables[0] : undefined);
      // Named after the group, whatever its tables are called: the ETL route picks the group by file name.
      return reply.type(file.contentType).header('content-disposition', attachment(`${group}.${format}`)).send(file.body);
    },
  );
};
