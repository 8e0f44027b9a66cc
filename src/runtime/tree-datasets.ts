import type { DatasetService } from '../datasets/service.js';
import { ScenaristError } from '../errors.js';
import type { TreeDatasets } from '../scenarios/tree/dataset-port.js';
import type { Store } from '../store/store.js';

/** Undefined for a dataset the session does not have; any other failure is thrown on. */
async function unlessMissing<T>(read: () => Promise<T>): Promise<T | undefined> {
  try {
    return await read();
  } catch (err) {
    if (err instanceof ScenaristError && err.code === 'DATASET_NOT_FOUND') return undefined;
    throw err;
  }
}

/** The dataset service as scenario trees see it (`src/scenarios/tree/dataset-port.ts`). */
export function treeDatasets(store: Store, datasets: DatasetService): TreeDatasets {
  return {
    prepareDerive: (sessionId, key, newKey, edits) => datasets.prepareDerive(sessionId, key, { newKey, edits }),
    exists: async (sessionId, key) => (await store.datasets.getMeta(sessionId, key)) !== undefined,
    origin: (sessionId, key) => unlessMissing(() => datasets.lineage(sessionId, key)),
    tables: (sessionId, key) => unlessMissing(async () => (await datasets.load(sessionId, key)).tables),
  };
}
