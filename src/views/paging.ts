import type { Cell } from '../domain/dataset-model.js';
import type { RenderedTable, TablePage, WireSort } from './rendered.js';
import { errors } from '../error-factories.js';

export const DEFAULT_PAGE_ROWS = 100;
export const MAX_PAGE_ROWS = 1000;

/** A table page request as the query gives it: all text, checked here (a bad value is a 400). */
export interface PageQuery {
  readonly limit?: string;
  readonly cursor?: string;
  readonly sort?: string;
}

/** `?limit=`: a whole number from 1 to MAX_PAGE_ROWS. */
export function parseLimit(text: string | undefined): number {
  if (text === undefined) return DEFAULT_PAGE_ROWS;
  const limit = /^[0-9]{1,7}$/.test(text) ? Number(text) : NaN;
  if (!(limit >= 1 && limit <= MAX_PAGE_ROWS)) throw errors.pageLimitInvalid(MAX_PAGE_ROWS, text);
  return limit;
}

/** `?sort=column` or `?sort=-column` (descending); without it the view's own order. */
export function parseSort(text: string | undefined, table: RenderedTable): WireSort | null {
  if (text === undefined || text === '') return table.sort;
  const descending = text.startsWith('-');
  const column = descending ? text.slice(1) : text;
  if (!table.columns.some((c) => c.name === column)) {
    throw errors.sortColumnUnknown(column, table.columns.map((c) => c.name));
  }
  return { column, descending };
}

function sortToken(sort: WireSort | null): string {
  return sort === null ? '' : `${sort.descending ? '-' : ''}${sort.column}`;
}

/** A cursor: the offset of the next row under a sort. Rows are a fixed snapshot, so an offset is exact. */
export function encodeCursor(offset: number, sort: WireSort | null): string {
  return Buffer.from(JSON.stringify([sortToken(sort), offset]), 'utf8').toString('base64url');
}

export function decodeCursor(text: string | undefined, sort: WireSort | null): number {
  if (text === undefined || text === '') return 0;
  let parsed: unknown;
  try {
    parsed = JSON.parse(Buffer.from(text, 'base64url').toString('utf8'));
  } catch {
    parsed = undefined;
  }
  if (!Array.isArray(parsed) || parsed.length !== 2 || typeof parsed[0] !== 'string' || !Number.isSafeInteger(parsed[1]) || (parsed[1] as number) < 0) {
    throw errors.cursorInvalid();
  }
  if (parsed[0] !== sortToken(sort)) throw errors.cursorOfOtherSort(String(parsed[0]), sortToken(sort));

  return parsed[1] as number;
}

/** Nulls last in either direction; numbers by value, text by code point, false before true. */
function compareCells(a: Cell, b: Cell): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  const [x, y] = typeof a === typeof b ? [a, b] : [String(a), String(b)];
  return x < y ? -1 : x > y ? 1 : 0;
}

/** Row orders already computed, per table and sort: paging through a sorted table sorts it once. */
const orders = new WeakMap<RenderedTable, Map<string, Uint32Array>>();

function rowOrder(table: RenderedTable, sort: WireSort): Uint32Array {
  let bySort = orders.get(table);
  if (!bySort) orders.set(table, (bySort = new Map<string, Uint32Array>()));
  const token = sortToken(sort);
  let order = bySort.get(token);
  if (!order) {
    const j = table.columns.findIndex((c) => c.name === sort.column);
    const keys = table.rows.map((row) => row[j] ?? null);
    const sign = sort.descending ? -1 : 1;
    // Equal cells keep the view's order (the index breaks ties); nulls stay last either way.
    order = new Uint32Array(keys.length).map((_, i) => i);
    order.sort((p, q) => {
      const a = keys[p]!;
      const b = keys[q]!;
      const c = a === null || b === null ? compareCells(a, b) : sign * compareCells(a, b);
      return c !== 0 ? c : p - q;
    });
    bySort.set(token, order);
  }
  return order;
}

/** One page of a rendered table. */
export function tablePage(table: RenderedTable, query: PageQuery): TablePage {
  const limit = parseLimit(query.limit);
  const sort = parseSort(query.sort, table);
  const offset = decodeCursor(query.cursor, sort);
  const total = table.rows.length;
  const end = Math.min(total, offset + limit);
  let rows: (readonly Cell[])[];
  if (sort === null) {
    rows = table.rows.slice(offset, end);
  } else {
    const order = rowOrder(table, sort);
    rows = [];
    for (let i = offset; i < end; i++) rows.push(table.rows[order[i]!]!);
  }
  return { columns: table.columns, rows, total, next_cursor: end < total ? encodeCursor(end, sort) : null, sort };
}

/** The whole table as one page in the view's own order (its default sort, if any): what a report freezes. */
export function wholeTable(table: RenderedTable): TablePage {
  const sort = table.sort;
  const rows = sort === null ? table.rows : Array.from(rowOrder(table, sort), (i) => table.rows[i]!);
  return { columns: table.columns, rows, total: rows.length, next_cursor: null, sort };
}
