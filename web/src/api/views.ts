import type { components, View } from 'scenarist/client';
import type { Api } from './client.ts';
import { unwrap } from './http.ts';
import { keys } from './keys.ts';

/**
 * The view routes (docs/api/views.md): what a domain declares to show a dataset, a result or a
 * comparison, rendered by the server into one JSON spec of four kinds. Every type comes from the
 * generated schema (`scenarist/client`) and every call goes through the API's typed client.
 */
type Schemas = components['schemas'];

export type ViewSummary = Schemas['ViewSummary'];
export type ViewKind = ViewSummary['kind'];
export type TableSpec = Schemas['TableViewSpec'];
export type TableColumn = TableSpec['columns'][number];
export type Cell = TableSpec['rows'][number][number];
export type ChartSpec = Schemas['ChartViewSpec'];
/** A Vega-Lite spec as JSON: the renderer hands it to vega-embed as is. */
export type VegaLiteSpec = ChartSpec['vega_lite'];
export type MetricsSpec = Schemas['MetricsViewSpec'];
export type Direction = NonNullable<MetricsSpec['items'][number]['better_when']>;
export type TextSpec = Schemas['TextViewSpec'];

/**
 * The spec each kind carries. The schema types `kind` and `spec` side by side (a spec is any of the
 * four); the server always pairs them, so the dashboard reads them as one union to switch on. A kind
 * added to the schema and missing here fails the build at `RenderedView`.
 */
interface SpecOfKind {
  table: TableSpec;
  chart: ChartSpec;
  metrics: MetricsSpec;
  text: TextSpec;
}

export type RenderedView = { [K in ViewKind]: Omit<View, 'kind' | 'spec'> & { kind: K; spec: SpecOfKind[K] } }[ViewKind];

/** Whose views: a scenario's result, a dataset, or a comparison of 2-6 complete scenarios. */
export type ViewTarget =
  | { of: 'scenario'; sid: string; id: string }
  | { of: 'dataset'; sid: string; key: string }
  /** `baseline`: the one Compare measures against, so the views draw against it too. */
  | { of: 'compare'; sid: string; ids: readonly string[]; baseline: string };

/** A table view's paging and order: `?limit=&cursor=&sort=` (`-column` sorts descending). */
export interface TableQuery {
  limit?: number;
  cursor?: string;
  sort?: string;
}

/** A stable cache key for a target (TanStack Query; live events invalidate by its prefix). */
export function targetKey(target: ViewTarget): readonly string[] {
  if (target.of === 'scenario') return keys.views(target.sid, 'scenario', target.id);
  if (target.of === 'dataset') return keys.views(target.sid, 'dataset', target.key);
  return keys.views(target.sid, 'compare', target.ids.join(','), target.baseline);
}

/** The views that apply to the target. */
export async function listViews({ http, config }: Api, target: ViewTarget): Promise<ViewSummary[]> {
  const { sid } = target;
  if (target.of === 'scenario') return (await unwrap(config, http.GET('/sessions/{sid}/scenarios/{id}/views', { params: { path: { sid, id: target.id } } }))).items;
  if (target.of === 'dataset') return (await unwrap(config, http.GET('/sessions/{sid}/data/{key}/views', { params: { path: { sid, key: target.key } } }))).items;
  return (await unwrap(config, http.GET('/sessions/{sid}/compare/views', { params: { path: { sid }, query: { ids: target.ids.join(',') } } }))).items;
}

/** One view rendered; a table view takes its page and order from `table`. */
export async function renderView({ http, config }: Api, target: ViewTarget, name: string, table: TableQuery = {}): Promise<RenderedView> {
  const { sid } = target;
  // The query string carries the limit as text; an empty cursor or sort means none.
  const page = { limit: table.limit === undefined ? undefined : String(table.limit), cursor: table.cursor || undefined, sort: table.sort || undefined };
  const view =
    target.of === 'scenario'
      ? await unwrap(config, http.GET('/sessions/{sid}/scenarios/{id}/views/{name}', { params: { path: { sid, id: target.id, name }, query: page } }))
      : target.of === 'dataset'
        ? await unwrap(config, http.GET('/sessions/{sid}/data/{key}/views/{name}', { params: { path: { sid, key: target.key, name }, query: page } }))
        : await unwrap(config, http.GET('/sessions/{sid}/compare/views/{name}', { params: { path: { sid, name }, query: { ids: target.ids.join(','), baseline: target.baseline, ...page } } }));
  return view as RenderedView;
}
