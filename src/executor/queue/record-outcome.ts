import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import { changeFor } from '../../scenarios/changes.js';
import type { Database } from '../../store/database.js';
import { prepared } from '../../store/prepared-query.js';
import { storeKpiValues } from '../../store/scenario-kpis.js';
import type { RunRef } from '../events.js';
import type { RunOutcome } from '../run/job.js';
import type { ClaimedRun } from './claimed-run.js';

/**
 * Writes of a claimed run. Each is conditional on the row still being PROCESSING under the run's
 * token, so a late write of a cancelled or deleted run changes nothing. Each returns whether it wrote.
 */

/** Which run a write belongs to: the scenario and the token of its claim. */
interface RunKey {
  readonly id: string;
  readonly runToken: string;
}

const keyOf = (run: ClaimedRun): RunKey => ({ id: run.job.scenarioId, runToken: run.runToken });

// The writes every run makes are compiled once (see store/prepared-query.ts).
const progressQuery = prepared((db, v: RunKey & { progress: number }) => owned(db, v).set({ progress: v.progress }));

const completeQuery = prepared((db, v: RunKey & { resultJson: string; kpisJson: string; now: string }) => {
  const change = changeFor('complete');
  return owned(db, v, change.from).set({
    status: change.to,
    progress: 1,
    result: v.resultJson,
    kpi_values: v.kpisJson,
    error: null,
    finished_at: v.now,
    queue_order: null,
    lease_owner: null,
  });
});

const failQuery = prepared((db, v: RunKey & { message: string; now: string }) => {
  const change = changeFor('fail');
  return owned(db, v, change.from).set({
    status: change.to,
    result: null,
    kpi_values: null,
    error: v.message,
    finished_at: v.now,
    queue_order: null,
    lease_owner: null,
  });
});

const wrote = (result: { readonly numAffectedRows?: bigint }) => Number(result.numAffectedRows ?? 0) > 0;

export async function writeProgress(db: Kysely<Database>, run: ClaimedRun, progress: number): Promise<boolean> {
  return wrote(await progressQuery(db, { ...keyOf(run), progress }));
}

export async function recordCompleted(
  db: Kysely<Database>,
  run: ClaimedRun,
  outcome: { readonly resultJson: string; readonly kpis: Readonly<Record<string, number>> },
  now: string,
): Promise<boolean> {
  await storeKpiValues(db, run.job.scenarioId, outcome.kpis);
  return wrote(await completeQuery(db, { ...keyOf(run), resultJson: outcome.resultJson, kpisJson: JSON.stringify(outcome.kpis), now }));
}

export async function recordFailed(db: Kysely<Database>, run: ClaimedRun, message: string, now: string): Promise<boolean> {
  return wrote(await failQuery(db, { ...keyOf(run), message, now }));
}

/**
 * Puts a run stopped by a shutdown back at its place in the queue. The attempt is given back: a
 * graceful stop is not an interruption (only a crash counts towards failing the scenario).
 */
export async function requeueStopped(db: Kysely<Database>, run: ClaimedRun): Promise<boolean> {
  const change = changeFor('requeue');
  const result = await owned(db, keyOf(run), change.from)
    .set((eb) => ({ status: change.to, attempts: eb('attempts', '-', 1), progress: 0, started_at: null, lease_owner: null }))
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

function owned(db: Kysely<Database>, run: RunKey, from: readonly Database['scenarios']['status'][] = ['PROCESSING']) {
  return db.updateTable('scenarios').where('id', '=', run.id).where('lease_owner', '=', run.runToken).where('status', 'in', from);
}

/** The event to announce once a settled run has been recorded. */
export type Announcement =
  | { readonly name: 'run:completed'; readonly event: RunRef }
  | { readonly name: 'run:failed'; readonly event: RunRef & { readonly message: string } };

/**
 * Records how a claimed run ended, the same way for every executor: nothing for a cancelled run (its
 * canceller deletes the row), COMPLETE whenever the algorithm finished (even during a shutdown), back in
 * the queue for a run stopped by a shutdown, FAILED (logged with its stack) otherwise. Returns what to
 * announce; nothing when the row was no longer this run's.
 */
export async function recordOutcome(
  db: Kysely<Database>,
  run: ClaimedRun,
  stopReason: 'cancel' | 'shutdown' | undefined,
  outcome: RunOutcome,
  log: Logger,
): Promise<Announcement | undefined> {
  const ref: RunRef = { scenarioId: run.job.scenarioId, sessionId: run.job.sessionId };
  if (stopReason === 'cancel') return undefined;
  if (outcome.status === 'COMPLETE') {
    return (await recordCompleted(db, run, outcome, new Date().toISOString())) ? { name: 'run:completed', event: ref } : undefined;
  }
  if (stopReason === 'shutdown') {
    await requeueStopped(db, run);
    return undefined;
  }
  log.error({ scenario_id: ref.scenarioId, session_id: ref.sessionId, error: outcome.message, stack: outcome.stack }, 'scenario run failed');
  const failed = await recordFailed(db, run, outcome.message, new Date().toISOString());
  return failed ? { name: 'run:failed', event: { ...ref, message: outcome.message } } : undefined;
}
