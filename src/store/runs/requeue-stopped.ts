import type { Kysely } from 'kysely';
import { changeFor } from '../../model/run-state/changes.js';
import type { Database } from '../database.js';
import { NOT_RUNNING } from '../run-columns.js';
import { owned, wrote, type RunKey } from './run-row.js';

/**
 * Puts a run stopped by a shutdown back at its place in the queue. The attempt is given back: a
 * graceful stop is not an interruption (only a crash counts towards failing the scenario).
 */
export async function requeueStopped(db: Kysely<Database>, key: RunKey): Promise<boolean> {
  const requeue = changeFor('requeue');
  const result = await owned(db, key, requeue.from)
    .set((eb) => ({ status: requeue.to, ...NOT_RUNNING, attempts: eb('attempts', '-', 1) }))
    .executeTakeFirst();
  return wrote(result);
}
