import type { Kysely } from 'kysely';
import { changeFor } from '../../scenarios/changes.js';
import type { Database } from '../../store/database.js';
import type { RunRef } from '../events.js';
import type { ClaimedRun } from '../queue/claimed-run.js';

/** A run whose worker died on its second attempt too ends FAILED with this. */
export const WORKER_DIED_TWICE = 'the run was interrupted twice (the worker process running it stopped responding); reset and run it again';

/**
 * Leases: a process running a scenario renews `lease_expires_at` while it lives. A PROCESSING row
 * whose lease ran out belongs to a dead (or cut-off) process; any process may then take it back.
 */

/** Renews the lease and writes progress; false when the row is no longer this run's (deleted, recovered). */
export async function renewLease(db: Kysely<Database>, run: ClaimedRun, progress: number, leaseUntil: string): Promise<boolean> {
  const result = await db
    .updateTable('scenarios')
    .set({ progress, lease_expires_at: leaseUntil })
    .where('id', '=', run.job.scenarioId)
    .where('lease_owner', '=', run.runToken)
    .where('status', '=', 'PROCESSING')
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export interface ExpiredRun extends RunRef {
  readonly attempts: number;
  readonly leaseOwner: string | null;
}

/** PROCESSING rows whose lease ran out (or that never got one within a lease period of starting). */
export async function expiredRuns(db: Kysely<Database>, now: string, unleasedBefore: string): Promise<ExpiredRun[]> {
  return db
    .selectFrom('scenarios')
    .select(['id as scenarioId', 'session_id as sessionId', 'attempts', 'lease_owner as leaseOwner'])
    .where('status', '=', 'PROCESSING')
    .where((eb) =>
      eb.or([
        eb('lease_expires_at', '<', now),
        eb.and([eb('lease_expires_at', 'is', null), eb('started_at', '<', unleasedBefore)]),
      ]),
    )
    .execute();
}

/**
 * Takes an expired run back: queued again (keeping its place) after one interruption, FAILED after
 * two. Conditional on the row being unchanged, so of several reapers exactly one acts.
 */
export async function reclaimExpired(db: Kysely<Database>, run: ExpiredRun, now: string): Promise<'requeued' | 'failed' | 'lost'> {
  const base = db
    .updateTable('scenarios')
    .where('id', '=', run.scenarioId)
    .where('status', '=', 'PROCESSING')
    .where('attempts', '=', run.attempts)
    .where((eb) => (run.leaseOwner === null ? eb('lease_owner', 'is', null) : eb('lease_owner', '=', run.leaseOwner)));
  if (run.attempts < 2) {
    const change = changeFor('requeue');
    const result = await base
      .where('status', 'in', change.from)
      .set({ status: change.to, progress: 0, started_at: null, lease_owner: null, lease_expires_at: null })
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0 ? 'requeued' : 'lost';
  }
  const change = changeFor('fail');
  const result = await base
    .where('status', 'in', change.from)
    .set({ status: change.to, error: WORKER_DIED_TWICE, result: null, kpi_values: null, finished_at: now, queue_order: null, lease_owner: null, lease_expires_at: null })
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0 ? 'failed' : 'lost';
}
