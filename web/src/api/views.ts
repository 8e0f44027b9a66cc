import type { Api } from './client.ts';
import { toApiError } from './http.ts';
import { keys } from './keys.ts';

/**
 * The view routes (docs/api: views): what a domain declares to show a dataset, a result or a comparison,
 * rendered by the server into one JSON spec of four kinds. Declared here by hand, as the wire contract
 * describes them, and called through the API's fetch and base (token included), so the dashboard does
 * not depend on the generated schema carrying them.
 */
export type ViewKind = 'table' | 'chart' | 'metrics' | 'text';

export interface ViewSummary {
  name: string;
  title: string;
  kind: ViewKind;
}

export type Cell = string | number | boolean | null;
export type ColumnType = 'string' | 'integer' | 'float' | 'boolean' | 'datetime';
export type Direction = 'HIGHER' | 'LOWER' | 'AT_LEAST' | 'AT_MOST';

export interface TableColumn {
  name: string;
  label: string;
  unit: string | null;
  format: string | null;
  type: ColumnType;
}

export interface TableSpec {
  columns: TableColumn[];
  rows: Cell[][];
  total: number;
  next_cursor: string | null;
  sort: { column: string; descending: boolean } | null;
}

/** A Vega-Lite spec as JSON: the renderer hands it to vega-embed as is. */
export type VegaLiteSpec = Record<string, unknown>;

export interface ChartSpec {
  vega_lite: VegaLiteSpec;
}

export interface MetricItem {
  label: string;
  value: number | null;
  unit: string | null;
  better_when: Direction | null;
  format: string | null;
}

export interface MetricsSpec {
  items: MetricItem[];
}

export interface TextSpec {
  markdown: string;
}

export type RenderedView =
  | { name: string; title: string; kind: 'table'; spec: TableSpec }
  | { name: string; title: string; kind: 'chart'; spec: ChartSpec }
  | { name: string; title: string; kind: 'metrics'; spec: MetricsSpec }
  | { name: string; title: string; kind: 'text'; spec: TextSpec };

/** Whose views: a scenario's result, a dataset, or a comparison of 2-6 complete scenarios. */
export type ViewTarget =
  | { of: 'scenario'; sid: string; id: string }
  | { of: 'dataset'; sid: string; key: string }
  | { of: 'compare'; sid: string; ids: readonly string[] };

/** A table view's paging and order: `?limit=&cursor=&sort=` (`-column` sorts descending). */
export interface TableQuery {
  limit?: number;
  cursor?: string;
  sort?: string;
}

const enc = encodeURIComponent;

function base(target: ViewTarget): { path: string; query: URLSearchParams } {
  const query = new URLSearchParams();
  const session = `/sessions/${enc(target.sid)}`;
  if (target.of === 'scenario') return { path: `${session}/scenarios/${enc(target.id)}/views`, query };
  if (target.of === 'dataset') return { path: `${session}/data/${enc(target.key)}/views`, query };
  query.set('ids', target.ids.join(','));
  return { path: `${session}/compare/views`, query };
}

/** A stable cache key for a target (TanStack Query; live events invalidate by its prefix). */
export function targetKey(target: ViewTarget): readonly string[] {
  if (target.of === 'scenario') return keys.views(target.sid, 'scenario', target.id);
  if (target.of === 'dataset') return keys.views(target.sid, 'dataset', target.key);
  return keys.views(target.sid, 'compare', target.ids.join(','));
}

async function getJson<T>(api: Api, path: string, query: URLSearchParams): Promise<T> {
  const qs = query.toString();
  const response = await api.fetch(`${api.baseUrl}${path}${qs ? `?${qs}` : ''}`, { headers: api.config.headers({ accept: 'application/json' }) });
  const text = await response.text();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  if (!response.ok) throw toApiError(api.config, response, body);
  return body as T;
}

/** The views that apply to the target. */
export async function listViews(api: Api, target: ViewTarget): Promise<ViewSummary[]> {
  const { path, query } = base(target);
  return (await getJson<{ items: ViewSummary[] }>(api, path, query)).items;
}

/** One view rendered; a table view takes its page and order from `table`. */
export function renderView(api: Api, target: ViewTarget, name: string, table: TableQuery = {}): Promise<RenderedView> {
  const { path, query } = base(target);
  if (table.limit !== undefined) query.set('limit', String(table.limit));
  if (table.cursor) query.set('cursor', table.cursor);
  if (table.sort) query.set('sort', table.sort);
  return getJson<RenderedView>(api, `${path}/${enc(name)}`, query);
}
