import { sql, type Kysely } from 'kysely';
import type { DatasetKind } from '../domain/dataset-model.js';
import type { Database } from './database.js';
import type { StoreDialect } from './dialect.js';
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
}

/**
 * Each table's name, columns and row count, computed by the database from the stored JSON text, so a
 * page of large datasets is never parsed in the process (table order is the stored order).
 */
function tableSummaries(dialect: StoreDialect) {
  return dialect === 'postgres'
    ? sql<string | null>`(select json_agg(json_build_object('name', t.key, 'columns', t.value -> 'columns', 'rows', json_array_length(t.value -> 'rows')))::text
        from json_each(d.tables_json::json) t)`
    : sql<string | null>`(select json_group_array(json_object('name', t.key, 'columns', json(json_extract(t.value, '$.columns')), 'rows', json_array_length(t.value, '$.rows')))
        from json_each(d.tables_json) t)`;
}

/** One page of a session's datasets in creation order, after `afterSeq`; up to `limit + 1` rows (the extra one tells there is more). */
export async function listDatasetPage(db: Kysely<Database>, dialect: StoreDialect, query: DatasetPageQuery): Promise<ListedDataset[]> {
  let q = db
    .selectFrom('datasets as d')
    .select(['d.seq as seq', 'd.key as key', 'd.kind as kind', 'd.created_at as createdAt', tableSummaries(dialect).as('tables')])
    .where('d.session_id', '=', query.sessionId);
  if (query.kind !== undefined) q = q.where('d.kind', '=', query.kind);
  if (query.q !== undefined && query.q !== '') {
    const pattern = likePattern(query.q);
    q = q.where(dialect === 'postgres' ? sql<boolean>`d.key ilike ${pattern} escape '\\'` : sql<boolean>`d.key like ${pattern} escape '\\'`);
  }
  if (query.afterSeq !== undefined) q = q.where('d.seq', '>', query.afterSeq);
  const rows = await q.orderBy('d.seq', 'asc').limit(query.limit + 1).execute();
  return rows.map((row) => ({
    seq: row.seq,
    key: row.key,
    kind: row.kind,
    createdAt: row.createdAt,
    tables: row.tables === null ? [] : (JSON.parse(row.tables) as TableSummary[]),
  }));
}
