import type { Kysely } from 'kysely';
import type { Database, StoredStatus } from '../database.js';

/**
 * What every write of a claimed run shares (see `../runs-repository.ts`): the key it writes under,
 * the condition that the row is still that run's, and how a conditional write tells it applied.
 */

/** Which run a write belongs to: the scenario and the token of its claim. */
export interface RunKey {
  readonly id: string;
  readonly runToken: string;
}

/** An UPDATE of the run's row, applied only while the row holds its token and is in one of `from`. */
export function owned(db: Kysely<Database>, key: RunKey, from: readonly StoredStatus[]) {
  return db.updateTable('scenarios').where('id', '=', key.id).where('lease_owner', '=', key.runToken).where('status', 'in', from);
}

/** Whether a conditional write changed a row (of concurrent writers, the one that did won). */
export const wrote = (result: { readonly numAffectedRows?: bigint; readonly numUpdatedRows?: bigint }) =>
  Number(result.numAffectedRows ?? result.numUpdatedRows ?? 0) > 0;
