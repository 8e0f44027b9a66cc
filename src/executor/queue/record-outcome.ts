import type { Kysely } from 'kysely';
import { changeFor } from '../../scenarios/changes.js';
import type { Database } from '../../store/database.js';
import type { ClaimedRun } from './claimed-run.js';

/**
 * Writes of a claimed run. Each is conditional on the row still being PROCESSING under the run's
 * token, so a late write of a cancelled or deleted run changes nothing. Each returns whether it wrote.
 */

export async function writeProgress(db: Kysely<Database>, run: ClaimedRun, progress: number): Promise<boolean> {
  const result = await owned(db, run).set({ progress }).executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function recordCompleted(
  db: Kysely<Database>,
  run: ClaimedRun,
  outcome: { readonly resultJson: string; readonly kpis: Readonly<Record<string, number>> },
  now: string,
): Promise<boolean> {
  const change = changeFor('complete');
  const result = await owned(db, run, change.from)
    .set({
      status: change.to,
      progress: 1,
      result: outcome.resultJson,
      kpi_values: JSON.stringify(outcome.kpis),
      error: null,
      finished_at: now,
      queue_order: null,
      lease_owner: null,
    })
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

export async function recordFailed(db: Kysely<Database>, run: ClaimedRun, message: string, now: string): Promise<boolean> {
  const change = changeFor('fail');
  const result = await owned(db, run, change.from)
    .set({ status: change.to, result: null, kpi_values: null, error: message, finished_at: now, queue_order: null, lease_owner: null })
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/**
 * Puts a run stopped by a shutdown back at its place in the queue. The attempt is given back: a
 * graceful stop is not an interruption (only a crash counts towards failing the scenario).
 */
export async function requeueStopped(db: Kysely<Database>, run: ClaimedRun): Promise<boolean> {
  const change = changeFor('requeue');
  const result = await owned(db, run, change.from)
    .set((eb) => ({ status: change.to, attempts: eb('attempts', '-', 1), progress: 0, started_at: null, lease_owner: null }))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

function owned(db: Kysely<Database>, run: ClaimedRun, from: readonly Database['scenarios']['status'][] = ['PROCESSING']) {
  return db
    .updateTable('scenarios')
    .where('id', '=', run.job.scenarioId)
    .where('lease_owner', '=', run.runToken)
    .where('status', 'in', from);
}
