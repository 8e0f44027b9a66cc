import type { DatasetLineage } from '../store/datasets-repository.js';
import type { EditEffect } from '../domain/edits/edit-model.js';

/** Where a dataset comes from: the dataset it was derived from (null for any other) and the edits made to it, in order. */
export interface DatasetLineageView {
  readonly key: string;
  readonly parent: string | null;
  readonly edits: EditEffect[];
}

export function lineageView(key: string, lineage: DatasetLineage): DatasetLineageView {
  return { key, parent: lineage.parentKey, edits: lineage.editsJson === null ? [] : (JSON.parse(lineage.editsJson) as EditEffect[]) };
}
