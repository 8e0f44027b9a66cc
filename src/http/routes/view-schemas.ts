import { Type } from '@sinclair/typebox';
import { COLUMN_TYPES } from '../../domain/dataset-model.js';
import { BETTER_WHEN } from '../../domain/define.js';
import { VIEW_KINDS } from '../../domain/views.js';
import { MAX_PAGE_ROWS } from '../../views/paging.js';
import { Nullable } from '../schemas.js';

/** The wire schemas of views (docs/api/views.md): what the list and render routes answer. */

export const ViewKindSchema = Type.Union(VIEW_KINDS.map((k) => Type.Literal(k)), { description: 'how the spec is drawn' });

export const ViewSummarySchema = Type.Object(
  { name: Type.String({ description: 'the name in the view URL' }), title: Type.String(), kind: ViewKindSchema },
  { $id: 'ViewSummary', description: 'A view that applies, without rendering it' },
);

export const ViewListSchema = Type.Object({ items: Type.Array(ViewSummarySchema) }, { $id: 'ViewList' });

const CellSchema = Type.Union([Type.String(), Type.Number(), Type.Boolean(), Type.Null()]);

export const TableSpecSchema = Type.Object(
  {
    columns: Type.Array(
      Type.Object({
        name: Type.String({ description: 'what ?sort= names' }),
        label: Type.String(),
        unit: Nullable(Type.String()),
        format: Nullable(Type.String({ description: 'a d3-format string the client applies to numbers; null: as is' })),
        type: Type.Union(COLUMN_TYPES.map((t) => Type.Literal(t))),
      }),
    ),
    rows: Type.Array(Type.Array(CellSchema), { description: 'this page only, cells in column order' }),
    total: Type.Integer({ description: 'rows of the whole table' }),
    next_cursor: Nullable(Type.String({ description: 'pass as ?cursor= for the next page; null on the last' })),
    sort: Nullable(Type.Object({ column: Type.String(), descending: Type.Boolean() })),
  },
  { $id: 'TableViewSpec', description: 'kind table: columns and one page of rows' },
);

export const ChartSpecSchema = Type.Object(
  {
    vega_lite: Type.Record(Type.String(), Type.Unknown(), {
      description: 'a Vega-Lite v6 spec, its data inline or named in its top-level `datasets`',
    }),
  },
  { $id: 'ChartViewSpec', description: 'kind chart' },
);

export const MetricsSpecSchema = Type.Object(
  {
    items: Type.Array(
      Type.Object({
        label: Type.String(),
        value: Nullable(Type.Number()),
        unit: Nullable(Type.String()),
        better_when: Nullable(Type.Union(BETTER_WHEN.map((b) => Type.Literal(b)))),
        format: Nullable(Type.String()),
      }),
    ),
  },
  { $id: 'MetricsViewSpec', description: 'kind metrics: labelled numbers' },
);

export const TextSpecSchema = Type.Object(
  { markdown: Type.String({ description: 'shown escaped: no raw HTML' }) },
  { $id: 'TextViewSpec', description: 'kind text' },
);

export const ViewBodySchema = Type.Object(
  {
    name: Type.String(),
    title: Type.String(),
    kind: ViewKindSchema,
    spec: Type.Union([TableSpecSchema, ChartSpecSchema, MetricsSpecSchema, TextSpecSchema], { description: 'the spec of `kind`' }),
  },
  { $id: 'View', description: 'A rendered view' },
);

/** `?limit=&cursor=&sort=`, checked by the view service (a bad value is a 400). */
export const ViewPageQuery = Type.Object({
  limit: Type.Optional(Type.String({ description: `table rows per page, 1 to ${MAX_PAGE_ROWS} (default 100)` })),
  cursor: Type.Optional(Type.String({ description: 'the next_cursor of the previous page' })),
  sort: Type.Optional(Type.String({ description: 'a column name, or -<column> for descending' })),
});
