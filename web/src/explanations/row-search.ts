import type { RowRef } from '../api/explanations.ts';

/**
 * The URL search parameters that address data rows, so a violation's row is a link: the Data page
 * opens a dataset at one table and row (`?dataset=&table=&row=`), the what-if editor opens filtered to
 * a violation's rows (`?rows=[{table,key}]`). The router reads them with these (router.tsx).
 */
export interface DataSearch {
  dataset?: string;
  table?: string;
  /** The row's key as text: its primary-key value, or its 0-based position in a table without one. */
  row?: string;
}

export interface WhatIfSearch {
  rows?: RowRef[];
}

const text = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : typeof value === 'number' ? String(value) : undefined);

export function dataSearch(search: Record<string, unknown>): DataSearch {
  return { dataset: text(search.dataset), table: text(search.table), row: text(search.row) };
}

/** Only well-formed row references survive: a hand-edited URL opens the editor unfiltered, never broken. */
export function whatIfSearch(search: Record<string, unknown>): WhatIfSearch {
  if (!Array.isArray(search.rows)) return {};
  const rows = search.rows.filter(
    (r): r is RowRef => typeof r === 'object' && r !== null && typeof (r as RowRef).table === 'string' && ['string', 'number'].includes(typeof (r as RowRef).key),
  );
  return rows.length > 0 ? { rows } : {};
}
