import type { Kysely } from 'kysely';
import type { Tables } from '../../domain/dataset-model.js';
import type { Database } from '../../store/database.js';

/**
 * One edit a derived dataset was made with, as its dataset records it (docs/api/what-ifs.md): the edit
 * as given (`{ table, update | insert | delete }`, whose other fields pass through untouched) and
 * `rows`, how many rows it touched.
 */
export interface AppliedEdit {
  readonly table: string;
  readonly rows: number;
}

/** An edit the derive flags: one whose `where` matched no row (`path` `edits[i]`). */
export interface EditWarning {
  readonly path: string;
  readonly message: string;
}

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
  readonly warnings: EditWarning[];
}

/** A derived dataset worked out and not stored yet (`src/datasets/derive.ts`). */
export interface PreparedDataset {
  readonly derived: DerivedDataset;
  /**
   * Stores it as one write of `db`, the branch's transaction: `missing` when the source is gone,
   * `changed` when it was replaced since it was read; `DATASET_KEY_TAKEN` when the key is taken.
   */
  write(db: Kysely<Database>): Promise<'derived' | 'missing' | 'changed'>;
}

/**
 * What scenario trees ask of datasets. Datasets sit above scenarios in the layers
 * (docs/architecture.md), so the dataset service is handed in as this port (runtime/assemble.ts).
 */
export interface TreeDatasets {
  /**
   * Works out the derive of `newKey` from `key` with `edits`, refusing bad edits with the dataset
   * service's codes, and stores nothing: the branch stores it with its scenario. Undefined when the
   * source was replaced while it was read (ask again).
   */
  prepareDerive(sessionId: string, key: string, newKey: string, edits: readonly unknown[]): Promise<PreparedDataset | undefined>;
  /** Whether the session has a dataset of this key. */
  exists(sessionId: string, key: string): Promise<boolean>;
  /** Where the dataset came from; undefined when the session has no such dataset. */
  origin(sessionId: string, key: string): Promise<DatasetOrigin | undefined>;
  /** The dataset's tables (compare's table summaries); undefined when the session has no such dataset. */
  tables(sessionId: string, key: string): Promise<Tables | undefined>;
}
