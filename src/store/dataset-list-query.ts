import type { Kysely } from 'kysely';
import type { DatasetKind } from '../domain/dataset-model.js';
import type { Database } from './database.js';
import type { DialectAdapter } from './dialect.js';
import { likePattern } from './scenario-list-query.js';

export interface DatasetPageQuery {
  readonly sessionId: string;
  /** A substring of the key, case-insensitive. */
  readonly q?: string;
  readonly kind?: DatasetKind;
  readonly limit: number;
  /** The creation sequence of the previous page's last dataset. */
  readonly afterSeq?: number;
}

export interface TableSummary {
  readonly name: string;
  readonly columns: { name: string; type: string }[];
  /** How many rows the table has. */
  readonly rows: number;
}

export interface ListedDataset {
  readonly seq: number;
  readonly key: string;
  readonly kind: DatasetKind;
  readonly createdAt: string;
  readonly tables: TableSummary[];
  /** The dataset it was derived from with edits, or null. */
  readonly parent: string | null;
}

/** One page of a session's datasets in creation order, after `afterSeq`; up to `limit + 1` rows (the extra one tells there is more). */
export async function listDatasetPage(db: Kysely<Database>, dialect: DialectAdapter, query: DatasetPageQuery): Promise<ListedDataset[]> {
  let q = db
    .selectFrom('datasets as d')
    // Table summaries are computed by the database from the stored JSON text, so a page of large
    // datasets is never parsed in the process (table order is the stored order).
    .select(['d.seq as seq', 'd.key as key', 'd.kind as kind', 'd.created_at as createdAt', dialect.tableSummaries('d.seq').as('tables'), 'd.parent_key as parent'])
    .where('d.session_id', '=', query.sessionId);
  if (query.kind !== undefined) q = q.where('d.kind', '=', query.kind);
  if (query.q !== undefined && query.q !== '') {
    const pattern = likePattern(query.q);
    q = q.where(dialect.matchesIgnoringCase('d.key', pattern));
  }
  if (query.afterSeq !== undefined) q = q.where('d.seq', '>', query.afterSeq);
  const rows = await q.orderBy('d.seq', 'asc').limit(query.limit + 1).execute();
  return rows.map((row) => ({
    seq: row.seq,
    key: row.key,
    kind: row.kind,
    createdAt: row.createdAt,
    tables: row.tables === null ? [] : (JSON.parse(row.tables) as TableSummary[]),
    parent: row.parent,
  }));
}
