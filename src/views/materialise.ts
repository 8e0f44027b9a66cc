import { COLUMN_TYPES, type Cell, type ColumnType } from '../domain/dataset-model.js';
import { BETTER_WHEN } from '../domain/define.js';
import type { ChartViewSpec, MetricsViewSpec, TableViewSpec, TextViewSpec, ViewKind } from '../domain/views.js';
import type { RenderedSpec, RenderedTable, WireColumn, WireMetric } from './rendered.js';

/** Rows a table view may hold: beyond this a view is a bug or needs a filter, not a bigger server. */
export const MAX_TABLE_ROWS = 1_000_000;
/** Data rows a chart may carry: the browser draws each one. Aggregate in the view beyond this. */
export const MAX_CHART_ROWS = 100_000;

/**
 * Turns what a view's `render` returned into its rendered form, checking it against its declared kind:
 * lazy rows are read once, every cell is a JSON scalar, every row as long as the columns. Throws an
 * Error saying what is wrong (the caller names the view).
 */
export function materialise(kind: ViewKind, spec: unknown): RenderedSpec {
  if (typeof spec !== 'object' || spec === null) throw new Error(`render returned ${spec === null ? 'null' : typeof spec}, not a ${kind} spec object`);
  switch (kind) {
    case 'table':
      return { kind, table: materialiseTable(spec as TableViewSpec) };
    case 'chart':
      return { kind, spec: { vega_lite: materialiseChart(spec as ChartViewSpec) } };
    case 'metrics':
      return { kind, spec: { items: materialiseMetrics(spec as MetricsViewSpec) } };
    case 'text': {
      const { markdown } = spec as TextViewSpec;
      if (typeof markdown !== 'string') throw new Error('a text view returns { markdown: string }');
      return { kind, spec: { markdown } };
    }
  }
}

function optionalText(value: unknown, what: string): string | null {
  if (value === undefined || value === null) return null;
  if (typeof value !== 'string') throw new Error(`${what} is ${typeof value}, not a string`);
  return value;
}

function describeCell(value: unknown): string {
  if (typeof value === 'number') return String(value);
  return value === undefined ? 'undefined' : Array.isArray(value) ? 'an array' : typeof value;
}

/** `Array.isArray` without its narrowing (which turns a typed readonly array into any[]). */
const isList = (value: unknown): boolean => Array.isArray(value);

function isCell(value: unknown): value is Cell {
  return value === null || typeof value === 'string' || typeof value === 'boolean' || (typeof value === 'number' && Number.isFinite(value));
}

function materialiseTable(spec: TableViewSpec): RenderedTable {
  if (!isList(spec.columns) || spec.columns.length === 0) throw new Error('a table view returns { columns: [...], rows } with at least one column');
  const names = new Set<string>();
  const declared = spec.columns.map((column, j) => {
    const name: unknown = column?.name;
    if (typeof name !== 'string' || name === '') throw new Error(`column ${j} has no name`);
    if (names.has(name)) throw new Error(`two columns are named "${name}"`);
    names.add(name);
    if (column.type !== undefined && !COLUMN_TYPES.includes(column.type)) throw new Error(`column "${name}" has type ${JSON.stringify(column.type)}; use one of ${COLUMN_TYPES.join(', ')}`);
    return column;
  });
  if (spec.rows === null || typeof spec.rows !== 'object' || typeof (spec.rows as Iterable<unknown>)[Symbol.iterator] !== 'function') {
    throw new Error('a table view returns rows as an array or another iterable of rows');
  }
  const width = declared.length;
  const rows: (readonly Cell[])[] = [];
  for (const row of spec.rows) {
    if (rows.length === MAX_TABLE_ROWS) throw new Error(`the table has more than ${MAX_TABLE_ROWS} rows`);
    if (!isList(row) || row.length !== width) throw new Error(`row ${rows.length} is not an array of ${width} cells (one per column)`);
    for (let j = 0; j < width; j++) {
      if (!isCell(row[j])) throw new Error(`row ${rows.length}, column "${declared[j]!.name}" holds ${describeCell(row[j])}; a cell is a string, a finite number, a boolean or null`);
    }
    // A copy: a generator may yield one array it refills.
    rows.push(row.slice());
  }
  const columns: WireColumn[] = declared.map((column, j) => ({
    name: column.name,
    label: optionalText(column.label, `column "${column.name}" label`) ?? column.name,
    unit: optionalText(column.unit, `column "${column.name}" unit`),
    format: optionalText(column.format, `column "${column.name}" format`),
    type: column.type ?? inferType(rows, j),
  }));
  let sort = null;
  if (spec.sort !== undefined) {
    if (!names.has(spec.sort?.column)) throw new Error(`sort names column ${JSON.stringify(spec.sort?.column)}, which the table does not have`);
    sort = { column: spec.sort.column, descending: spec.sort.descending === true };
  }
  return { columns, rows, sort };
}

/** The type of a column declared without one: that of its first non-null cell. */
function inferType(rows: readonly (readonly Cell[])[], j: number): ColumnType {
  for (const row of rows) {
    const cell = row[j];
    if (cell === null || cell === undefined) continue;
    if (typeof cell === 'number') return Number.isInteger(cell) ? 'integer' : 'float';
    return typeof cell === 'boolean' ? 'boolean' : 'string';
  }
  return 'string';
}

function materialiseChart(spec: ChartViewSpec): Record<string, unknown> {
  const { vegaLite, datasets } = spec;
  if (typeof vegaLite !== 'object' || vegaLite === null || Array.isArray(vegaLite)) throw new Error('a chart view returns { vegaLite: <a Vega-Lite spec object> }');
  // A JSON round trip: what reaches the browser is plain data, whatever the view built it from.
  let plain: Record<string, unknown>;
  try {
    plain = JSON.parse(JSON.stringify(vegaLite)) as Record<string, unknown>;
  } catch (err) {
    throw new Error(`the Vega-Lite spec is not JSON: ${(err as Error).message}`, { cause: err });
  }
  if (datasets === undefined) return plain;
  if (typeof datasets !== 'object' || datasets === null) throw new Error('datasets must be an object of named row lists');
  const named: Record<string, unknown> = { ...(plain.datasets as Record<string, unknown> | undefined) };
  let count = 0;
  for (const [name, rows] of Object.entries(datasets)) {
    if (rows === null || typeof rows !== 'object' || typeof rows[Symbol.iterator] !== 'function') throw new Error(`datasets.${name} is not a list of rows`);
    const values: Record<string, Cell>[] = [];
    for (const row of rows) {
      if (++count > MAX_CHART_ROWS) throw new Error(`the chart carries more than ${MAX_CHART_ROWS} data rows; aggregate them, or show them in a table view`);
      if (typeof row !== 'object' || row === null || Array.isArray(row)) throw new Error(`datasets.${name} row ${values.length} is not an object`);
      for (const [field, value] of Object.entries(row)) {
        if (!isCell(value)) throw new Error(`datasets.${name} row ${values.length}, field "${field}" holds ${describeCell(value)}; a value is a string, a finite number, a boolean or null`);
      }
      values.push({ ...row });
    }
    named[name] = values;
  }
  return { ...plain, datasets: named };
}

function materialiseMetrics(spec: MetricsViewSpec): WireMetric[] {
  if (!isList(spec.items)) throw new Error('a metrics view returns { items: [...] }');
  return spec.items.map((item, i) => {
    if (typeof item?.label !== 'string') throw new Error(`metric ${i} has no label`);
    const value: unknown = item.value;
    if (value !== null && !(typeof value === 'number' && Number.isFinite(value))) throw new Error(`metric "${item.label}" is ${describeCell(value)}, not a finite number or null`);
    if (item.betterWhen !== undefined && !BETTER_WHEN.includes(item.betterWhen)) throw new Error(`metric "${item.label}" has betterWhen ${JSON.stringify(item.betterWhen)}; use one of ${BETTER_WHEN.join(', ')}`);
    return {
      label: item.label,
      value,
      unit: optionalText(item.unit, `metric "${item.label}" unit`),
      better_when: item.betterWhen ?? null,
      format: optionalText(item.format, `metric "${item.label}" format`),
    };
  });
}
