import type { DatasetKind } from '../domain/dataset-model.js';
import { listDatasetPage, type TableSummary } from '../store/dataset-list-query.js';
import { decodeCursor, encodeCursor } from '../model/list-cursor.js';
import type { Store } from '../store/store.js';
import type { Page } from '../scenarios/list-page.js';
import type { StaleMark } from '../model/stale-mark.js';
import { versionMarks } from './version-marks.js';

export interface DatasetListParams {
  readonly q?: string;
  readonly kind?: DatasetKind;
  readonly limit?: number;
  readonly cursor?: string;
}

export interface DatasetSummary {
  readonly key: string;
  readonly kind: DatasetKind;
  readonly created_at: string;
  readonly tables: TableSummary[];
  /** The dataset it was derived from with edits (`derive` with `edits`), or null. */
  readonly parent: string | null;
  /** Its current version, its parent's version it was derived from, its stale mark (docs/api/cycles.md). */
  readonly version: number;
  readonly parent_version: number | null;
  readonly stale: StaleMark | null;
}

/** Datasets are listed in creation order only; the cursor names that order. */
const DATASET_ORDER = 'created_at';

/** One page of the session's datasets for the list route's query parameters. */
export async function datasetPage(store: Store, sessionId: string, params: DatasetListParams, defaultLimit: number): Promise<Page<DatasetSummary>> {
  const limit = params.limit ?? defaultLimit;
  const after = params.cursor === undefined ? undefined : decodeCursor(params.cursor, DATASET_ORDER);
  const rows = await listDatasetPage(store.db, store.adapter, { sessionId, q: params.q, kind: params.kind, limit, afterSeq: after?.seq });
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  // Stale marks: one read of the session's current versions for the whole page.
  const versions = page.length === 0 ? new Map() : await store.datasetVersions.currentVersions(sessionId);
  return {
    items: page.map((row) => ({ key: row.key, kind: row.kind, created_at: row.createdAt, tables: row.tables, parent: row.parent, ...versionMarks(row.key, versions) })),
    next_cursor: rows.length > limit && last ? encodeCursor({ sort: DATASET_ORDER, value: null, seq: last.seq }) : null,
  };
}
