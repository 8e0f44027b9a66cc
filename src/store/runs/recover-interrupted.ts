import type { Kysely } from 'kysely';
import type { Database } from '../database.js';
import type { InterruptedRun } from './expired-runs.js';
import { reclaimRun } from './reclaim-run.js';

/** What became of interrupted runs: queued again after one interruption, FAILED after two. */
export interface Recovered {
  readonly requeued: InterruptedRun[];
  readonly failed: InterruptedRun[];
}

/**
 * Restart recovery (docs/api/contract.md, "Life cycle"): every scenario found PROCESSING when the only
 * executor of the store starts was interrupted by the death of the process that ran it.
 */
export function recoverInterrupted(db: Kysely<Database>, now: string): Promise<Recovered> {
  return db.transaction().execute(async (trx) => {
    const rows = await trx
      .selectFrom('scenarios')
      .select(['id as scenarioId', 'session_id as sessionId', 'attempts', 'lease_owner as leaseOwner'])
      .where('status', '=', 'PROCESSING')
      .execute();
    const recovered: Recovered = { requeued: [], failed: [] };
    for (const row of rows) {
      const outcome = await reclaimRun(trx, row, now);
      if (outcome !== 'lost') recovered[outcome].push(row);
    }
    return recovered;
  });
}
