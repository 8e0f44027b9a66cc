import type { Column } from '../../domain/dataset-model.js';
import { errors } from '../../error-factories.js';
import { currentVersionNo, versionTableRefs } from '../../store/rebase-store.js';
import type { Store } from '../../store/store.js';

/** A table of a root's version, without its content. */
export interface RootTable {
  readonly name: string;
  readonly hash: string;
  readonly columns: readonly Column[];
}

/** The version of a root dataset a rebase replays edits on. */
export interface RootBase {
  readonly key: string;
  readonly versionNo: number;
  /** Whether it is the key's current version (then successors use the key itself). */
  readonly current: boolean;
  /** The current dataset's cache token when read: a derive from it checks it was not replaced since. */
  readonly token: string | undefined;
  readonly tables: readonly RootTable[];
}

/** Where a rebase reads its roots: their current version, or an older one by number. */
export interface RootSource {
  current(sessionId: string, key: string): Promise<RootBase>;
  /** 404 `DATASET_VERSION_NOT_FOUND` when the key has no such version. */
  at(sessionId: string, key: string, versionNo: number): Promise<RootBase>;
}

export function storedRoots(store: Store): RootSource {
  const current = async (sessionId: string, key: string): Promise<RootBase> => {
    const [refs, versionNo] = await Promise.all([store.datasets.tableRefs(sessionId, key), currentVersionNo(store.db, sessionId, key)]);
    if (!refs || versionNo === undefined) throw errors.datasetNotFound(key);
    return { key, versionNo, current: true, token: refs.version, tables: refs.tables };
  };
  return {
    current,
    async at(sessionId, key, versionNo) {
      const now = await currentVersionNo(store.db, sessionId, key);
      if (now === undefined) throw errors.datasetNotFound(key);
      if (now === versionNo) return current(sessionId, key);
      const tables = await versionTableRefs(store.db, sessionId, key, versionNo);
      if (!tables) throw errors.datasetVersionNotFound(key, versionNo);
      return { key, versionNo, current: false, token: undefined, tables };
    },
  };
}
