import type { Cell, ColumnType } from './dataset-model.js';
import type { AnyAlgorithm, BetterWhen, DataOf, ResultOf, ResultType } from './define.js';

/**
 * Views: what a domain draws of its data and results (tables, charts, numbers, text). A view is a
 * function of typed data that returns a JSON-serialisable spec of its declared kind; the server runs it
 * in a worker thread, pages its table rows, and the dashboard renders the spec. No domain code runs in
 * the browser.
 */

export const VIEW_KINDS = ['table', 'chart', 'metrics', 'text'] as const;
export type ViewKind = (typeof VIEW_KINDS)[number];

/** One column of a table view. */
export interface ViewColumn {
  /** The column's key: what `?sort=` names. */
  readonly name: string;
  /** What people read in the header (default: `name`). */
  readonly label?: string;
  readonly unit?: string;
  /** A d3-format string (`",.1f"`, `".0%"`) the client applies to numbers. */
  readonly format?: string;
  /** The cells' type (default: read from the first non-null cell, else `string`). */
  readonly type?: ColumnType;
}

/** A table: columns and rows of cells in column order. Rows may be lazy (a generator): the server pages them. */
export interface TableViewSpec {
  readonly columns: readonly ViewColumn[];
  readonly rows: Iterable<readonly Cell[]>;
  /** The order rows are served in when the client asks none (default: as given). */
  readonly sort?: { readonly column: string; readonly descending?: boolean };
}

/** A JSON object (a Vega-Lite spec, for a chart). */
export type JsonObject = { readonly [key: string]: unknown };

/**
 * A Vega-Lite v6 spec with its data inline (`data: { values }`), or naming tables (`data: { name: 't' }`)
 * given in `datasets`: their rows (objects by field name, possibly a generator) go to the spec's
 * top-level `datasets`.
 */
export interface ChartViewSpec {
  readonly vegaLite: JsonObject;
  readonly datasets?: Readonly<Record<string, Iterable<Readonly<Record<string, Cell>>>>>;
}

export interface MetricItem {
  readonly label: string;
  readonly value: number | null;
  readonly unit?: string;
  readonly betterWhen?: BetterWhen;
  readonly format?: string;
}

export interface MetricsViewSpec {
  readonly items: readonly MetricItem[];
}

/** Markdown, shown escaped (no raw HTML). */
export interface TextViewSpec {
  readonly markdown: string;
}

/** What a view of kind `K` returns. */
export interface ViewSpecs {
  readonly table: TableViewSpec;
  readonly chart: ChartViewSpec;
  readonly metrics: MetricsViewSpec;
  readonly text: TextViewSpec;
}
export type ViewSpecOf<K extends ViewKind> = ViewSpecs[K];

interface ViewFields<K extends ViewKind> {
  /** Unique among the domain's views of the same scope (dataset, result or comparison); used in URLs. */
  readonly name: string;
  readonly title: string;
  readonly kind: K;
  readonly description?: string;
}

/** A view of a dataset, over its tables read through the schemas (`DatasetOf<typeof schemas>`). */
export interface DatasetView<TDataset = unknown, K extends ViewKind = ViewKind> extends ViewFields<K> {
  readonly scope: 'dataset';
  readonly render: (dataset: TDataset) => ViewSpecOf<K>;
}

/** Which algorithms' results a view draws: a list of them, or every algorithm returning a result type. */
export type ViewScope<R = unknown> = readonly AnyAlgorithm[] | ResultType<R>;

/** A view of one result and the data its run took (the `prepare` output with the scenario's data parameters). */
export interface ResultView<R = unknown, TData = unknown, K extends ViewKind = ViewKind> extends ViewFields<K> {
  readonly scope: 'result';
  /** As a KPI's `appliesTo`: a list of algorithms, or a result type; without it, every algorithm. */
  readonly appliesTo?: ViewScope<R>;
  readonly render: (result: R, data: TData) => ViewSpecOf<K>;
}

/** One compared scenario, as a comparison view receives it. */
export interface ComparedRun<R, TData> {
  readonly id: string;
  readonly tag: string;
  readonly algorithm: string;
  /** Whether this is the comparison's baseline (the one asked for, else the same default as compare's). */
  readonly baseline: boolean;
  readonly result: R;
  readonly data: TData;
}

/** A view of 2 to 6 COMPLETE results of one result type, in the order the client listed them. */
export interface ComparisonView<R = unknown, TData = unknown, K extends ViewKind = ViewKind> extends ViewFields<K> {
  readonly scope: 'comparison';
  readonly appliesTo: ResultType<R>;
  readonly render: (runs: readonly ComparedRun<R, TData>[]) => ViewSpecOf<K>;
}

// The registry holds views of any data and result types; the view service calls them with the values
// their declarations promise.
/* eslint-disable @typescript-eslint/no-explicit-any */
export type AnyDatasetView = DatasetView<any, ViewKind>;
export type AnyResultView = ResultView<any, any, ViewKind>;
export type AnyComparisonView = ComparisonView<any, any, ViewKind>;
/* eslint-enable @typescript-eslint/no-explicit-any */
export type AnyView = AnyDatasetView | AnyResultView | AnyComparisonView;

/** `A & B & ...` of a tuple's element types. */
type IntersectAll<T extends readonly unknown[]> = T extends readonly [infer Head, ...infer Rest] ? Head & IntersectAll<Rest> : T extends readonly [] ? unknown : T[number];
type DataOfEach<A extends readonly AnyAlgorithm[]> = { readonly [I in keyof A]: DataOf<A[I]> };

/** Declares a dataset view: annotate `dataset` as `DatasetOf<typeof schemas>`. */
export function defineDatasetView<TDataset, const K extends ViewKind>(view: ViewFields<K> & { readonly render: (dataset: TDataset) => ViewSpecOf<K> }): DatasetView<TDataset, K> {
  return Object.freeze({ ...view, scope: 'dataset' as const });
}

/**
 * Declares a result view. With `appliesTo: [algorithms]`, `result` is typed as what they return and
 * `data` as what they take; with `appliesTo: resultType`, `result` is that type.
 */
export function defineResultView<const A extends readonly AnyAlgorithm[], const K extends ViewKind>(
  view: ViewFields<K> & { readonly appliesTo: A; readonly render: (result: ResultOf<A[number]>, data: IntersectAll<DataOfEach<A>>) => ViewSpecOf<K> },
): ResultView<ResultOf<A[number]>, IntersectAll<DataOfEach<A>>, K>;
export function defineResultView<R, TData = unknown, const K extends ViewKind = ViewKind>(
  view: ViewFields<K> & { readonly appliesTo: ResultType<R>; readonly render: (result: R, data: TData) => ViewSpecOf<K> },
): ResultView<R, TData, K>;
export function defineResultView<R = unknown, TData = unknown, const K extends ViewKind = ViewKind>(
  view: ViewFields<K> & { readonly appliesTo?: undefined; readonly render: (result: R, data: TData) => ViewSpecOf<K> },
): ResultView<R, TData, K>;
export function defineResultView(view: Omit<AnyResultView, 'scope'>): AnyResultView {
  return Object.freeze({ ...view, scope: 'result' as const });
}

/** Declares a comparison view over results of one result type; `runs[i].tag` names each scenario. */
export function defineComparisonView<R, TData = unknown, const K extends ViewKind = ViewKind>(
  view: ViewFields<K> & { readonly appliesTo: ResultType<R>; readonly render: (runs: readonly ComparedRun<R, TData>[]) => ViewSpecOf<K> },
): ComparisonView<R, TData, K> {
  return Object.freeze({ ...view, scope: 'comparison' as const });
}
