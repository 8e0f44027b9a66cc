import { Type, type FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { DeriveBodyShape, FilterText, KeyList, Nullable, ParameterSchema, SessionParams } from '../schemas.js';
import { EditEffectSchema } from '../../datasets/edits/edit-schema.js';
import type { RouteOptions } from '../services.js';
import { queryValidatorCompiler } from '../query-validator.js';
import { CONTENT_TYPES, EXPORT_FORMATS, exportDataset } from '../../exports/dataset-export.js';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from '../../scenarios/list-page.js';
import { errors } from '../../error-factories.js';
import { DatasetVersionList, DatasetVersionNo, StaleMarkSchema, VersionQueryField } from './version-schemas.js';

const tags = ['datasets'];
const DatasetListQuery = Type.Object({
  q: Type.Optional(FilterText('a substring of the key, case-insensitive')),
  kind: Type.Optional(Type.Union([Type.Literal('master'), Type.Literal('derived')])),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE, description: 'page size' })),
  cursor: Type.Optional(Type.String({ description: 'next_cursor of the previous page' })),
});

const DatasetPage = Type.Object(
  {
    items: Type.Array(
      Type.Object({
        key: Type.String(),
        kind: Type.Union([Type.Literal('master'), Type.Literal('derived')]),
        created_at: Type.String({ format: 'date-time' }),
        parent: Nullable(Type.String(), { description: 'the dataset it was derived from, or null' }),
        version: DatasetVersionNo,
        parent_version: Nullable(Type.Integer(), { description: "the parent's version it was derived from; null when not derived" }),
        stale: StaleMarkSchema,
        tables: Type.Array(
          Type.Object({
            name: Type.String(),
            columns: Type.Array(Type.Object({ name: Type.String(), type: Type.String() })),
            rows: Type.Integer({ description: 'row count' }),
          }),
        ),
      }),
    ),
    next_cursor: Nullable(Type.String(), { description: 'the cursor of the next page; null on the last one' }),
  },
  { title: 'A page of datasets' },
);

const ExportQuery = Type.Object({
  format: Type.Optional(Type.Union(EXPORT_FORMATS.map((f) => Type.Literal(f)), { description: 'json (default), csv or xlsx' })),
  table: Type.Optional(Type.String({ description: 'export only this table' })),
  version: VersionQueryField,
});

const KeyParams = Type.Intersect([SessionParams, Type.Object({ key: Type.String() })]);

const DeriveAnswer = Type.Object(
  {
    keys: Type.Array(Type.String()),
    edits: Type.Optional(Type.Array(EditEffectSchema, { description: 'with edits: each edit with `rows`, how many rows it updated, inserted or deleted' })),
    warnings: Type.Optional(Type.Array(Type.Object({ path: Type.String(), message: Type.String() }), { description: 'edits whose where matched no row (stored with rows 0)' })),
  },
  { title: 'Derived' },
);

const LineageAnswer = Type.Object(
  {
    key: Type.String(),
    parent: Nullable(Type.String()),
    edits: Type.Array(EditEffectSchema),
    version: Type.Optional(DatasetVersionNo),
    parent_version: Type.Optional(Nullable(Type.Integer(), { description: "the parent's version it was derived from; null when not derived" })),
    stale: Type.Optional(StaleMarkSchema),
    skipped: Type.Optional(
      Type.Array(Type.Object({ path: Type.String(), message: Type.String(), edit: Type.Unknown() }), {
        description: 'the edits a rebase left out making it (on_conflict "skip", docs/api/cycles.md); absent when none',
      }),
    ),
  },
  { title: 'Dataset lineage' },
);

export const datasetRoutes: FastifyPluginAsyncTypebox<RouteOptions> = async (app, { services }) => {
  const { sessions, datasets } = services;

  app.get(
    '/sessions/:sid/data',
    {
      config: { errors: ['CURSOR_INVALID'] },
      validatorCompiler: queryValidatorCompiler,
      schema: {
        summary: 'List dataset keys, or with any query parameter a filtered page of datasets with their tables',
        description:
          'Without query parameters: `{ keys }`, every key in creation order. With any of them: `{ items, next_cursor }`, each item ' +
          'with its tables (name, columns, row count); pass `next_cursor` as `cursor` for the next page.',
        tags,
        params: SessionParams,
        querystring: DatasetListQuery,
        response: { 200: Type.Union([KeyList, DatasetPage]) },
      },
    },
    async (request) => {
      const session = await sessions.resolve(request.params.sid);
      if (Object.keys(request.query).some((key) => key in DatasetListQuery.properties)) {
        return datasets.page(session.id, request.query, DEFAULT_PAGE_SIZE);
      }
      return { keys: await datasets.listKeys(session.id) };
    },
  );

  app.get(
    '/sessions/:sid/data/:key',
    {
      config: { errors: ['DATASET_NOT_FOUND', 'DATASET_VERSION_NOT_FOUND', 'TABLE_NOT_FOUND'] },
      // `version` arrives as text: converted, then checked (a bad one is a 400 QUERY_INVALID).
      validatorCompiler: queryValidatorCompiler,
      schema: {
        summary: "A dataset's JSON form, or an export of its tables as CSV or XLSX",
        description:
          '`format=csv`: a zip of one `<table>.csv` per table, or with `table` that one CSV; `format=xlsx`: a workbook with one ' +
          'sheet per table (or only `table`). Exports are the files the ETL route reads back. `version=N` reads an earlier ' +
          'version of the key, in every format (docs/api/cycles.md).',
        tags,
        params: KeyParams,
        querystring: ExportQuery,
        response: {
          200: {
            description: 'the dataset',
            content: {
              'application/json': { schema: Type.Unknown({ description: 'the JSON form produced by the data source' }) },
              'application/zip': { schema: Type.String({ format: 'binary', description: 'format=csv: one <table>.csv per table' }) },
              'text/csv': { schema: Type.String({ description: 'format=csv&table=<name>' }) },
              [CONTENT_TYPES.xlsx]: { schema: Type.String({ format: 'binary', description: 'format=xlsx' }) },
            },
          },
        },
      },
    },
    async (request, reply) => {
      const session = await sessions.resolve(request.params.sid);
      const { format, table } = request.query;
      const version = request.query.version === undefined ? undefined : Number(request.query.version);
      if (format === 'csv' || format === 'xlsx') {
        const file = exportDataset(await datasets.load(session.id, request.params.key, version), format, table);
        return reply.type(file.contentType).header('content-disposition', file.disposition).send(file.body);
      }
      if (table !== undefined) throw errors.exportTableWithoutFormat();

      // Sent as stored text: no parse and re-serialise of large datasets.
      const form = await datasets.jsonForm(session.id, request.params.key, version);
      return reply.type('application/json; charset=utf-8').send(form);
    },
  );

  app.delete(
    '/sessions/:sid/data/:key',
    {
      config: { errors: ['DATASET_NOT_FOUND', 'DATASET_IN_USE', 'PLAN_DATASET_PROTECTED'], audit: { action: 'dataset.delete' } },
      schema: { summary: 'Delete a dataset', tags, params: KeyParams, response: { 204: Type.Null() } },
    },
    async (request, reply) => {
      const session = await sessions.resolve(request.params.sid);
      await datasets.delete(session.id, request.params.key);
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/sessions/:sid/data/:key/derive',
    {
      // The data source's derive() is domain code: its tables are checked, and it may refuse with BAD_INPUT.
      config: { errors: ['DATASET_NOT_FOUND', 'DATASET_KEY_TAKEN', 'DATASET_EDITS_INVALID', 'CONFLICT', 'DATASET_FORM_INVALID', 'BAD_INPUT'], audit: { action: 'dataset.derive' } },
      schema: {
        summary: 'Derive a new dataset from this one, with edits to its data',
        description:
          '`{ new_key }` alone: a copy marked `derived`. With `edits`: each edit updates (`where`, `set`, `scale`), inserts or ' +
          'deletes rows of one table; every problem of every edit is refused at once (422 `DATASET_EDITS_INVALID`, nothing stored). ' +
          'Tables no edit names are shared with this dataset, not copied. The answer then adds each edit with `rows` (its effect) ' +
          'and `warnings` for edits whose `where` matched no row. See docs/api/what-ifs.md.',
        tags,
        params: KeyParams,
        // `edits` are checked by the service against the dataset's tables (the OpenAPI document shows their form).
        body: DeriveBodyShape,
        response: { 201: DeriveAnswer },
      },
    },
    async (request, reply) => {
      const session = await sessions.resolve(request.params.sid);
      const { new_key: newKey, edits } = request.body;
      const { keys, derived } = await datasets.derive(session.id, request.params.key, { newKey, edits });
      // Edits hold cells of any JSON type in unions the schema's compiled serializer cannot pick between: plain JSON.
      return reply.code(201).serializer(JSON.stringify).send(edits === undefined ? { keys } : { keys, edits: derived.edits, warnings: derived.warnings });
    },
  );

  app.get(
    '/sessions/:sid/data/:key/versions',
    {
      config: { errors: ['DATASET_NOT_FOUND'] },
      schema: {
        summary: "A dataset key's versions, newest first",
        description:
          'Every version the key keeps (each replacement of the key adds one; `dataset_versions_kept` bounds them, never ' +
          'pruning one a scenario, report or plan uses): `version`, `created_at`, `created_by` (as the audit trail names the ' +
          'writer), `current`, and per table its row count and content hash. Read one with `GET .../data/{key}?version=N`. ' +
          'See docs/api/cycles.md.',
        tags,
        params: KeyParams,
        response: { 200: DatasetVersionList },
      },
    },
    async (request) => {
      const session = await sessions.resolve(request.params.sid);
      const versions = await datasets.versions(session.id, request.params.key);
      return {
        versions: versions.map((v) => ({ version: v.versionNo, created_at: v.createdAt, created_by: v.createdBy, current: v.current, tables: [...v.tables] })),
      };
    },
  );

  app.get(
    '/sessions/:sid/data/:key/lineage',
    {
      config: { errors: ['DATASET_NOT_FOUND'] },
      schema: {
        summary: "A dataset's parent and the edits that made it from its parent",
        description: '`parent` is null (and `edits` empty) for a dataset not made by derive. Cheap: no table is read.',
        tags,
        params: KeyParams,
        response: { 200: LineageAnswer },
      },
    },
    async (request, reply) => {
      const session = await sessions.resolve(request.params.sid);
      // As for derive's answer: edits are serialized as plain JSON.
      return reply.serializer(JSON.stringify).send(await datasets.lineage(session.id, request.params.key));
    },
  );

  app.get(
    '/sessions/:sid/data/:key/parameters',
    {
      config: { errors: ['DATASET_NOT_FOUND'] },
      schema: {
        summary: "Describe the data source's parameters",
        tags,
        params: KeyParams,
        response: { 200: ParameterSchema },
      },
    },
    async (request) => {
      const session = await sessions.resolve(request.params.sid);
      return datasets.parameters(session.id, request.params.key);
    },
  );
};
