import type { TSchema } from '@sinclair/typebox';
import { COLUMN_TYPES, type Cell } from '../dataset-model.js';
import type { Schemas } from '../dataset-schema.js';
import { BETTER_WHEN, type AnyExternalAlgorithm, type ResultType } from '../define.js';
import type { AnyView, JsonObject as ViewJson, MetricItem, ViewColumn, ViewKind } from '../views.js';
import { optional } from './dataset-schemas.js';
import { pointerText, readPointer, valueAt, type Pointer } from './pointer.js';
import { readArray, readChoice, readFields, readObject, readOptionalBoolean, readOptionalString, readString, type JsonObject } from './read.js';
import { schemaAt } from './result-schema.js';
import { readScope } from './scope.js';
import type { Where } from './where.js';

/**
 * The manifest's `views`: what can be drawn without code. Of a result: a `table` of an array of
 * objects in it (its first table view is also the result's CSV/XLSX export), a `chart` (a Vega-Lite
 * spec whose data is an array in it), `metrics` (numbers in it) and `text` (a Markdown string in it).
 * Of a dataset: a `table` of one of its tables. What needs code (comparison views, computed columns,
 * several arrays in one chart) needs the TypeScript form.
 */

const COMMON = ['name', 'title', 'kind', 'description', 'scope'];
const RESULT_FIELDS: Readonly<Record<ViewKind, readonly string[]>> = {
  table: [...COMMON, 'appliesTo', 'resultType', 'rows', 'columns', 'sort'],
  chart: [...COMMON, 'appliesTo', 'resultType', 'values', 'vegaLite'],
  metrics: [...COMMON, 'appliesTo', 'resultType', 'items'],
  text: [...COMMON, 'appliesTo', 'resultType', 'markdown'],
};
const KINDS = Object.keys(RESULT_FIELDS) as ViewKind[];

export function readViews(value: unknown, at: Where, schemas: Schemas, algorithms: readonly AnyExternalAlgorithm[], resultTypes: ReadonlyMap<string, ResultType<unknown>>): AnyView[] {
  const names = new Set<string>();
  return readArray(value, at).map((item, i) => {
    const itemAt: Where = at.index(i);
    const scope = readChoice(readObject(item, itemAt).scope, itemAt.key('scope'), ['result', 'dataset'] as const);
    const kind = readChoice(readObject(item, itemAt).kind, itemAt.key('kind'), scope === 'dataset' ? (['table'] as const) : KINDS);
    const fields = readFields(item, itemAt, scope === 'dataset' ? [...COMMON, 'table', 'columns', 'sort'] : RESULT_FIELDS[kind], ['name', 'title', 'kind', 'scope', ...(scope === 'dataset' ? ['table'] : [])]);
    const name = readString(fields.name, itemAt.key('name'));
    if (!/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(name)) itemAt.key('name').fail("must be letters, digits, '.', '_' and '-' (it goes in URLs)");
    if (names.has(`${scope}:${name}`)) itemAt.key('name').fail(`two ${scope} views are named "${name}"`);
    names.add(`${scope}:${name}`);
    const base = { name, title: readString(fields.title, itemAt.key('title')), kind, ...optional('description', readOptionalString(fields.description, itemAt.key('description'))) };
    if (scope === 'dataset') return datasetTable(fields, itemAt, base, schemas);
    const { appliesTo, algorithms: drawn } = readScope(fields, itemAt, algorithms, resultTypes);
    /** The pointer `value` (at `pointerAt`); fails unless every drawn result declares a value of `types` there. */
    const read: ReadPointer = (value, pointerAt, types) => {
      const pointer = readPointer(value, pointerAt);
      for (const algorithm of drawn) {
        const type = schemaAt(algorithm.result.schema as TSchema, pointer)?.type as unknown;
        if (typeof type !== 'string' || !types.includes(type)) {
          pointerAt.fail(`algorithm "${algorithm.name}" returns result type "${algorithm.result.name}", which declares no ${types.join(' or ')} at ${pointerText(pointer)}`);
        }
      }
      return pointer;
    };
    const render = resultRender(kind, fields, itemAt, read);
    return Object.freeze({ ...base, scope: 'result' as const, ...optional('appliesTo', appliesTo), render }) as AnyView;
  });
}

type Render = (result: unknown) => unknown;
type ReadPointer = (value: unknown, at: Where, types: readonly string[]) => Pointer;

function resultRender(kind: ViewKind, fields: JsonObject, at: Where, read: ReadPointer): Render {
  switch (kind) {
    case 'table': {
      if (fields.rows === undefined) at.key('rows').fail('is required: a JSON Pointer to an array of objects in the result');
      const rows = read(fields.rows, at.key('rows'), ['array']);
      const columns = readColumns(fields.columns, at.key('columns'));
      const sort = readSort(fields.sort, at.key('sort'), columns);
      return (result) => ({ columns, rows: objectsAt(result, rows).map((row) => columns.map((column) => cellOf(row[column.name]))), ...optional('sort', sort) });
    }
    case 'chart': {
      if (fields.values === undefined) at.key('values').fail('is required: a JSON Pointer to the array the chart draws');
      const values = read(fields.values, at.key('values'), ['array']);
      const spec = readObject(fields.vegaLite, at.key('vegaLite'));
      if (spec.data !== undefined) at.key('vegaLite').key('data').fail('is filled from "values"; leave it out');
      return (result) => ({ vegaLite: { ...spec, data: { values: objectsAt(result, values) } } as ViewJson });
    }
    case 'metrics': {
      const items = readArray(fields.items, at.key('items')).map((item, i) => {
        const itemAt: Where = at.key('items').index(i);
        const f = readFields(item, itemAt, ['label', 'from', 'unit', 'betterWhen', 'format'], ['label', 'from']);
        const from = read(f.from, itemAt.key('from'), ['number', 'integer']);
        return {
          from,
          label: readString(f.label, itemAt.key('label')),
          ...optional('unit', readOptionalString(f.unit, itemAt.key('unit'))),
          ...optional('betterWhen', f.betterWhen === undefined ? undefined : readChoice(f.betterWhen, itemAt.key('betterWhen'), BETTER_WHEN)),
          ...optional('format', readOptionalString(f.format, itemAt.key('format'))),
        };
      });
      return (result) => ({
        items: items.map(({ from, ...item }): MetricItem => {
          const value = valueAt(result, from);
          return { ...item, value: typeof value === 'number' && Number.isFinite(value) ? value : null };
        }),
      });
    }
    default: {
      if (fields.markdown === undefined) at.key('markdown').fail('is required: a JSON Pointer to a Markdown string in the result');
      const markdown = read(fields.markdown, at.key('markdown'), ['string']);
      return (result) => {
        const text = valueAt(result, markdown);
        return { markdown: typeof text === 'string' ? text : '' };
      };
    }
  }
}

const COLUMN_FIELDS = ['name', 'label', 'unit', 'format', 'type'];

function readColumns(value: unknown, at: Where): ViewColumn[] {
  const columns = readArray(value, at).map((item, i): ViewColumn => {
    const columnAt: Where = at.index(i);
    const f = readFields(item, columnAt, COLUMN_FIELDS, ['name']);
    return {
      name: readString(f.name, columnAt.key('name')),
      ...optional('label', readOptionalString(f.label, columnAt.key('label'))),
      ...optional('unit', readOptionalString(f.unit, columnAt.key('unit'))),
      ...optional('format', readOptionalString(f.format, columnAt.key('format'))),
      ...optional('type', f.type === undefined ? undefined : readChoice(f.type, columnAt.key('type'), COLUMN_TYPES)),
    };
  });
  if (columns.length === 0) at.fail('must list at least one column');
  return columns;
}

function readSort(value: unknown, at: Where, columns: readonly ViewColumn[]): { column: string; descending?: boolean } | undefined {
  if (value === undefined) return undefined;
  const f = readFields(value, at, ['column', 'descending'], ['column']);
  const column = readString(f.column, at.key('column'));
  if (!columns.some((c) => c.name === column)) at.key('column').fail(`names "${column}", which is not one of the view's columns`);
  return { column, ...optional('descending', readOptionalBoolean(f.descending, at.key('descending'))) };
}

/** A dataset view: the rows of one table, in the columns listed (default: every column of the table). */
function datasetTable(fields: JsonObject, at: Where, base: { name: string; title: string; kind: ViewKind }, schemas: Schemas): AnyView {
  const table = readString(fields.table, at.key('table'));
  const spec = Object.values(schemas).map((group) => group.tables[table]).find((found) => found !== undefined)
    ?? at.key('table').fail(`names "${table}", which is not a table of the manifest's schemas`);
  const columns: ViewColumn[] = fields.columns === undefined
    ? Object.entries(spec.columns).map(([name, column]) => ({ name, type: column.type, ...optional('unit', column.unit) }))
    : readColumns(fields.columns, at.key('columns'));
  for (const [i, column] of columns.entries()) {
    if (!Object.hasOwn(spec.columns, column.name)) at.key('columns').index(i).key('name').fail(`names "${column.name}", which is not a column of table "${table}"`);
  }
  const sort = readSort(fields.sort, at.key('sort'), columns);
  const render = (dataset: { tables: Record<string, { rows: readonly Record<string, Cell>[] }> }) => ({
    columns,
    rows: dataset.tables[table]!.rows.map((row) => columns.map((column) => row[column.name] ?? null)),
    ...optional('sort', sort),
  });
  return Object.freeze({ ...base, scope: 'dataset' as const, render }) as AnyView;
}

/** The array of objects at `pointer` (the result check made it one). */
function objectsAt(result: unknown, pointer: Pointer): Record<string, unknown>[] {
  const value = valueAt(result, pointer);
  if (!Array.isArray(value)) throw new Error(`the result has no array at ${pointerText(pointer)}`);
  return value.map((row) => (typeof row === 'object' && row !== null ? (row as Record<string, unknown>) : { value: row }));
}

function cellOf(value: unknown): Cell {
  return value === undefined ? null : typeof value === 'object' && value !== null ? JSON.stringify(value) : (value as Cell);
}
