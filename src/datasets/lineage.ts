import type { DatasetLineage } from '../store/datasets-repository.js';
import type { EditEffect } from '../domain/edits/edit-model.js';
import type { StaleMark } from '../model/stale-mark.js';

/** Where a dataset comes from: the dataset it was derived from (null for any other) and the edits made to it, in order. */
export interface DatasetLineageView {
  readonly key: string;
  readonly parent: string | null;
  readonly edits: EditEffect[];
  /** The edits a rebase left out making it (`on_conflict: "skip"`), each `{ path, message, edit }`; absent when none. */
  readonly skipped?: { path: string; message: string; edit: unknown }[];
  /** Its current version, its parent's version, its stale mark (docs/api/cycles.md); filled by the service. */
  readonly version?: number;
  readonly parent_version?: number | null;
  readonly stale?: StaleMark | null;
}

export function lineageView(key: string, lineage: DatasetLineage): DatasetLineageView {
  const skipped = lineage.rebaseSkipped ? { skipped: JSON.parse(lineage.rebaseSkipped) as { path: string; message: string; edit: unknown }[] } : {};
  return { key, parent: lineage.parentKey, edits: lineage.editsJson === null ? [] : (JSON.parse(lineage.editsJson) as EditEffect[]), ...skipped };
}
