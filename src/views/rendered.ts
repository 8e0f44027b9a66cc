import type { Cell, ColumnType } from '../domain/dataset-model.js';
import type { BetterWhen } from '../domain/define.js';
import type { ViewKind } from '../domain/views.js';

/** A table view's column on the wire: every optional field of the declaration filled in. */
export interface WireColumn {
  readonly name: string;
  readonly label: string;
  readonly unit: string | null;
  readonly format: string | null;
  readonly type: ColumnType;
}

export interface WireSort {
  readonly column: string;
  readonly descending: boolean;
}

/** A table view as rendered: every row, checked and in the order the view gave them. Pages are cut from it. */
export interface RenderedTable {
  readonly columns: readonly WireColumn[];
  readonly rows: readonly (readonly Cell[])[];
  /** The order the view asks for when the client asks none. */
  readonly sort: WireSort | null;
}

export interface WireMetric {
  readonly label: string;
  readonly value: number | null;
  readonly unit: string | null;
  readonly better_when: BetterWhen | null;
  readonly format: string | null;
}

/** The `spec` of a rendered view whose kind is not a table: sent as is. */
export type WholeSpec = { readonly vega_lite: Record<string, unknown> } | { readonly items: readonly WireMetric[] } | { readonly markdown: string };

/** What a view rendered to: a table (paged when served) or a spec sent whole. */
export type RenderedSpec = { readonly kind: 'table'; readonly table: RenderedTable } | { readonly kind: Exclude<ViewKind, 'table'>; readonly spec: WholeSpec };

/** A rendered view as the cache keeps it. */
export interface RenderedView {
  readonly name: string;
  readonly title: string;
  readonly rendered: RenderedSpec;
}

/** A table page on the wire. */
export interface TablePage {
  readonly columns: readonly WireColumn[];
  readonly rows: readonly (readonly Cell[])[];
  readonly total: number;
  readonly next_cursor: string | null;
  readonly sort: WireSort | null;
}

/** `GET .../views/{name}`. */
export interface ViewBody {
  readonly name: string;
  readonly title: string;
  readonly kind: ViewKind;
  readonly spec: TablePage | WholeSpec;
}

/** A view drawn whole for a report: as `ViewBody` with a table's every row in one page, or the failure of a view that threw. */
export type WholeView = ViewBody | { readonly name: string; readonly title: string; readonly kind: ViewKind; readonly error: string };
