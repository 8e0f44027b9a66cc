import { timeLimitMessage } from '../../model/run-state/run-error.js';
import { randomUUID } from 'node:crypto';
import type { EndedThenClaimed, RunKey, RunsRepository } from '../../store/runs-repository.js';
import type { RunEventMap, RunRef } from '../events.js';
import type { InsightChannel } from '../run/insight-channel.js';
import type { RunOutcome } from '../run/job.js';
import { claimedRun, type ClaimOptions } from './claim.js';
import type { ClaimedRun } from './claimed-run.js';

/** Why a run was stopped before it finished on its own. */
export type StopReason = 'cancel' | 'shutdown' | 'time-limit';

/** The slice of a logger that recording an outcome writes to (a run thread relays it to the main thread's). */
export interface OutcomeLog {
  warn(fields: object, message: string): void;
  error(fields: object, message: string): void;
}

export const keyOf = (run: ClaimedRun): RunKey => ({ id: run.job.scenarioId, runToken: run.runToken });

/** The event to announce once a settled run has been recorded. */
export type Announcement =
  | { readonly name: 'run:completed'; readonly event: RunEventMap['run:completed'] }
  | { readonly name: 'run:failed'; readonly event: RunEventMap['run:failed'] };

/** What recording an outcome did: the event to announce, and the session's next run when one was claimed with it. */
export interface Recorded {
  readonly announcement?: Announcement;
  readonly next?: ClaimedRun;
}

/**
 * Complete-and-claim-next: a run that ends COMPLETE or FAILED claims its session's next run (when
 * that heads the queue) in the transaction that records its end, with these claim options.
 */
export type NextClaim = ClaimOptions;

/** How long an outcome waits for the run's last reports and log lines (a stopped thread sends none). */
const INSIGHT_DRAIN_MS = 1_000;

/**
 * Records how a claimed run ended, the same way for every executor: nothing for a cancelled run (its
 * canceller already wrote or deleted the row), COMPLETE whenever the algorithm finished (even during a
 * shutdown or at its time limit), back in the queue for a run stopped by a shutdown, FAILED with
 * TIME_LIMIT for one stopped at its time limit, FAILED (logged with its stack) otherwise. Every write
 * needs the run's token. A recorded outcome first writes the run's last reports and log lines
 * (`insight`) and announces its final report. With `next`, a run that ends COMPLETE or FAILED claims
 * its session's next run in the same transaction. Answers what to announce (nothing when the row was
 * no longer this run's) and the run claimed next.
 */
export async function recordOutcome(
  runs: RunsRepository,
  run: ClaimedRun,
  stopReason: StopReason | undefined,
  outcome: RunOutcome,
  log: OutcomeLog,
  insight?: InsightChannel,
  next?: NextClaim,
): Promise<Recorded> {
  const ref: RunRef = { scenarioId: run.job.scenarioId, sessionId: run.job.sessionId };
  const requeued = stopReason === 'shutdown' && outcome.status !== 'COMPLETE';
  if (stopReason === 'cancel' || requeued) {
    void insight?.drained(0);
  } else {
    await writeLastInsight(runs, run, insight, log);
  }
  if (stopReason === 'cancel') return {};
  const key = keyOf(run);
  const report = insight?.buffer.report;
  const final = report ? { report } : {};
  // A shutdown stops taking work: nothing is claimed after a run it stopped.
  const claimNext = next && stopReason !== 'shutdown' ? { sessionId: ref.sessionId, runToken: randomUUID(), leaseMs: next.leaseMs, maxRunning: next.maxRunning } : undefined;
  const claimed = (ended: EndedThenClaimed) => (ended.next && claimNext ? claimedRun(ended.next, claimNext.runToken, next!) : undefined);
  const now = new Date().toISOString();
  if (outcome.status === 'COMPLETE') {
    // The explanation, if any, is written in the completion's own transaction (`completeRun`).
    const completed = { resultJson: outcome.resultJson, kpis: outcome.kpis, ...(outcome.explanation ? { explanation: outcome.explanation } : {}) };
    const ended = claimNext ? await runs.completeThenClaimNext(key, completed, now, claimNext) : { written: await runs.complete(key, completed, now) };
    return ended.written ? { announcement: { name: 'run:completed', event: { ...ref, ...final } }, next: claimed(ended) } : {};
  }
  if (stopReason === 'shutdown') {
    await runs.requeueStopped(key);
    return {};
  }
  const failure =
    stopReason === 'time-limit'
      ? { message: timeLimitMessage(run.timeLimitMs), code: 'TIME_LIMIT' as const }
      : { message: outcome.message, code: outcome.code ?? ('ALGORITHM_ERROR' as const), resultJson: outcome.resultJson, ...(outcome.thrown ? { thrown: outcome.thrown } : {}) };
  const ids = { scenario_id: ref.scenarioId, session_id: ref.sessionId };
  if (stopReason === 'time-limit') log.warn({ ...ids, time_limit_ms: run.timeLimitMs }, 'scenario run stopped at its time limit');
  else log.error({ ...ids, error: outcome.message, stack: outcome.stack }, 'scenario run failed');
  const ended = claimNext ? await runs.failThenClaimNext(key, failure, now, claimNext) : { written: await runs.fail(key, failure, now) };
  return ended.written ? { announcement: { name: 'run:failed', event: { ...ref, message: failure.message, code: failure.code, ...final } }, next: claimed(ended) } : {};
}

/** Waits for the run's final batch and writes what the store does not have yet; a failure is only logged. */
export async function writeLastInsight(runs: RunsRepository, run: ClaimedRun, insight: InsightChannel | undefined, log: OutcomeLog): Promise<void> {
  if (!insight) return;
  await insight.drained(INSIGHT_DRAIN_MS);
  // A flush may be writing earlier lines: these go after them, and before the outcome.
  await insight.buffer.idle();
  const last = insight.buffer.take();
  if (!last) return;
  try {
    await runs.writeRunInsight(keyOf(run), last);
  } catch (err) {
    log.warn({ err, scenario_id: run.job.scenarioId }, 'could not write the last reports and log lines of a run');
  }
}
