import type { Tables } from '../../domain/dataset-model.js';

/**
 * One edit a derived dataset was made with, as its dataset records it (docs/api/what-ifs.md): the edit
 * as given (`{ table, update | insert | delete }`) and `rows`, how many rows it touched.
 */
export type AppliedEdit = Readonly<Record<string, unknown>> & { readonly table: string; readonly rows: number };

/** Where a dataset came from: the dataset it was derived from (null when none) and the edits made to it. */
export interface DatasetOrigin {
  readonly key: string;
  readonly parent: string | null;
  readonly edits: AppliedEdit[];
}

/** A dataset a branch derived from its base's: its key, its parent's, and each edit with its effect. */
export interface DerivedDataset {
  readonly key: string;
  readonly parent: string;
  readonly edits: AppliedEdit[];
}

/**
 * What scenario trees ask of datasets. Datasets sit above scenarios in the layers
 * (docs/architecture.md), so the dataset service is handed in as this port (runtime/assemble.ts).
 */
export interface TreeDatasets {
  /** Derives `newKey` from `key` with `edits`, refusing bad edits with the dataset service's codes. */
  derive(sessionId: string, key: string, newKey: string, edits: readonly unknown[]): Promise<DerivedDataset>;
  /** Removes a dataset a branch derived when the branch itself could not be stored. */
  discard(sessionId: string, key: string): Promise<void>;
  /** Whether the session has a dataset of this key. */
  exists(sessionId: string, key: string): Promise<boolean>;
  /** Where the dataset came from; undefined when the session has no such dataset. */
  origin(sessionId: string, key: string): Promise<DatasetOrigin | undefined>;
  /** The dataset's tables (compare's table summaries); undefined when the session has no such dataset. */
  tables(sessionId: string, key: string): Promise<Tables | undefined>;
}
