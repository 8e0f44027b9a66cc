import type { Kysely } from 'kysely';
import { changeFor } from '../../model/run-state/changes.js';
import { INTERRUPTED_TWICE } from '../../model/run-state/run-error.js';
import type { Database } from '../database.js';
import { ENDED, NOT_RUNNING } from '../run-columns.js';
import type { InterruptedRun } from './expired-runs.js';
import { wrote } from './run-row.js';

/**
 * Takes one interrupted run back: queued again (keeping its place) after one interruption, FAILED
 * (code INTERRUPTED) after two. Conditional on the row being unchanged since it was read, so of
 * several reapers exactly one acts.
 */
export async function reclaimRun(db: Kysely<Database>, run: InterruptedRun, now: string): Promise<'requeued' | 'failed' | 'lost'> {
  const again = run.attempts < 2;
  const c = changeFor(again ? 'requeue' : 'fail');
  const base = db
    .updateTable('scenarios')
    .where('id', '=', run.scenarioId)
    .where('status', 'in', c.from)
    .where('attempts', '=', run.attempts)
    .where((eb) => (run.leaseOwner === null ? eb('lease_owner', 'is', null) : eb('lease_owner', '=', run.leaseOwner)));
  const result = again
    ? await base.set({ status: c.to, ...NOT_RUNNING }).executeTakeFirst()
    : await base
        .set({ status: c.to, ...ENDED, error: INTERRUPTED_TWICE, error_code: 'INTERRUPTED', result: null, kpi_values: null, finished_at: now })
        .executeTakeFirst();
  if (!wrote(result)) return 'lost';
  return again ? 'requeued' : 'failed';
}
