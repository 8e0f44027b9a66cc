import type { DatasetWrite } from '../../store/datasets-repository.js';
import type { Store } from '../../store/store.js';
import { errors } from '../../error-factories.js';

/**
 * Stores a dataset, replacing one of the same key. A session deleted while its upload was being
 * processed makes the insert violate the session foreign key: that is the client's 404, not a 500.
 * Replacing the dataset of the session's published plan is allowed: the plan keeps the version it was
 * computed on (migration 0027).
 */
export async function putDataset(store: Store, record: DatasetWrite): Promise<void> {
  try {
    await store.datasets.put(record);
  } catch (err) {
    if (isForeignKeyViolation(err)) throw errors.sessionGoneDuringStore(record.sessionId, record.key);
    throw err;
  }
}

function isForeignKeyViolation(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const code = (err as { code?: unknown }).code;
  return code === '23503' || code === 'SQLITE_CONSTRAINT_FOREIGNKEY';
}
