import type { Kysely } from 'kysely';
import type { StatusChange } from '../model/run-state/changes.js';
import type { Database, StoredStatus } from './database.js';
import type { DialectAdapter } from './dialect.js';
import { activeIds } from './runs/active-ids.js';
import { cancelRun } from './runs/cancel-run.js';
import { claimRun, type ClaimedRow } from './runs/claim-run.js';
import { completeRun, type CompletedRun } from './runs/complete-run.js';
import { completesInOneStatement, endAndClaimCompletion, endAndClaimFailure } from './runs/end-and-claim-next.js';
import { endThenClaimNext, type EndedThenClaimed, type NextClaimRequest } from './runs/end-then-claim-next.js';
import { expiredRuns, type InterruptedRun } from './runs/expired-runs.js';
import { failRun, type RunFailure } from './runs/fail-run.js';
import { queueRun } from './runs/queue-run.js';
import { reclaimRun } from './runs/reclaim-run.js';
import { recoverInterrupted, type Recovered } from './runs/recover-interrupted.js';
import { requeueStopped } from './runs/requeue-stopped.js';
import { resetRun } from './runs/reset-run.js';
import type { RunKey } from './runs/run-row.js';
import { statusOf } from './runs/status-of.js';
import { writeProgressBatch, type ProgressWrite } from './runs/write-progress-batch.js';
import { writeRunInsight, type RunInsightWrite } from './runs/write-run-insight.js';
import type { ScenarioRecord, ScenarioRef } from './scenarios-repository.js';

export type { ClaimedRow } from './runs/claim-run.js';
export type { CompletedRun } from './runs/complete-run.js';
export type { EndedThenClaimed, NextClaimRequest } from './runs/end-then-claim-next.js';
export type { InterruptedRun } from './runs/expired-runs.js';
export type { RunFailure } from './runs/fail-run.js';
export type { Recovered } from './runs/recover-interrupted.js';
export type { RunKey } from './runs/run-row.js';
export type { RunInsightWrite } from './runs/write-run-insight.js';

/**
 * Every write of run state, the one owner of those columns, as one object bound to the store's
 * connections; each operation is a file of `runs/` (as graphile-worker's `sql/` folder is). Each
 * transition takes its from-states and target from the state machine (`changeFor`) and its cleared
 * columns from `run-columns.ts`; each is one conditional UPDATE, so of concurrent writers exactly one
 * wins. Writes of a claimed run also require its token (`lease_owner`): a run cancelled, deleted or
 * taken over elsewhere never writes its row again. Times that several hosts compare (leases, start)
 * come from the database clock.
 */
export class RunsRepository {
  /** `dialect` picks the cheaper form of a write where the two differ (`combinesWrites`). */
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: DialectAdapter,
    /**
     * Where claims are written: on PostgreSQL, connections whose commits do not wait for the WAL
     * flush. Every flushed commit costs a disk sync, and a run makes several. Only a crash of the
     * database server itself can lose a claim, and then it is lost with its `started` event (written
     * in the same transaction) and the scenario is simply QUEUED again, as an interrupted run would
     * be: whatever the run writes later needs the lost claim's token and is refused. The run's
     * completion is flushed, and flushes the WAL up to and including the claim.
     */
    private readonly claims: Kysely<Database> = db,
  ) {}

  /** See `queueRun`; `db` is a transaction it is one write of, if any. */
  queue(ref: ScenarioRef, c: StatusChange, now: string, db: Kysely<Database> = this.db): Promise<ScenarioRecord | undefined> {
    return queueRun(db, ref, c, now);
  }

  reset(ref: ScenarioRef, c: StatusChange): Promise<ScenarioRecord | undefined> {
    return resetRun(this.db, ref, c);
  }

  cancel(ref: ScenarioRef, now: string): Promise<ScenarioRecord | undefined> {
    return cancelRun(this.db, ref, now);
  }

  activeIds(sessionId: string): Promise<string[]> {
    return activeIds(this.db, sessionId);
  }

  statusOf(id: string): Promise<{ status: StoredStatus; sessionId: string } | undefined> {
    return statusOf(this.db, id);
  }

  /** `claimRun` of scenario `id` (when no earlier run of its session waits). */
  claim(id: string, runToken: string, leaseMs?: number, maxRunning = 1): Promise<ClaimedRow | undefined> {
    return claimRun(this.claims, this.dialect, { id }, { runToken, maxRunning, ...(leaseMs === undefined ? {} : { leaseMs }) });
  }

  /** `claimRun` of the queue's head when it belongs to `sessionId` (with `maxRunning` above 1: the session's own head, when fair). */
  claimHeadOfSession(sessionId: string, runToken: string, leaseMs?: number, maxRunning = 1): Promise<ClaimedRow | undefined> {
    return claimRun(this.claims, this.dialect, { headOfSession: sessionId }, { runToken, maxRunning, ...(leaseMs === undefined ? {} : { leaseMs }) });
  }

  /** See `writeProgressBatch`: several runs' progress (and, with `leaseMs`, leases) at once; answers the ids still their runs'. */
  writeProgressBatch(writes: readonly ProgressWrite[], leaseMs?: number): Promise<Set<string>> {
    return writeProgressBatch(this.db, this.dialect.combinesWrites, writes, leaseMs);
  }

  writeRunInsight(key: RunKey, write: RunInsightWrite): Promise<boolean> {
    return writeRunInsight(this.db, key, write);
  }

  complete(key: RunKey, outcome: CompletedRun, now: string): Promise<boolean> {
    return completeRun(this.db, this.dialect, key, outcome, now);
  }

  fail(key: RunKey, failure: RunFailure, now: string): Promise<boolean> {
    return failRun(this.db, key, failure, now);
  }

  /**
   * `complete`, then the session's next run claimed in the same transaction (see `endThenClaimNext`);
   * on PostgreSQL in the same statement (see `end-and-claim-next.ts`).
   */
  completeThenClaimNext(key: RunKey, outcome: CompletedRun, now: string, next: NextClaimRequest): Promise<EndedThenClaimed> {
    if (this.dialect.combinesWrites && completesInOneStatement(outcome)) return endAndClaimCompletion(this.db, key, outcome, now, next);
    return endThenClaimNext(this.db, this.dialect, (trx) => completeRun(trx, this.dialect, key, outcome, now), next);
  }

  /** `fail`, then the session's next run claimed in the same transaction, or statement (as `completeThenClaimNext`). */
  failThenClaimNext(key: RunKey, failure: RunFailure, now: string, next: NextClaimRequest): Promise<EndedThenClaimed> {
    if (this.dialect.combinesWrites) return endAndClaimFailure(this.db, key, failure, now, next);
    return endThenClaimNext(this.db, this.dialect, (trx) => failRun(trx, key, failure, now), next);
  }

  requeueStopped(key: RunKey): Promise<boolean> {
    return requeueStopped(this.db, key);
  }

  expiredRuns(leaseMs: number): Promise<InterruptedRun[]> {
    return expiredRuns(this.db, leaseMs);
  }

  /** See `reclaimRun`; `db` is a transaction it is one write of, if any. */
  reclaim(run: InterruptedRun, now: string, db: Kysely<Database> = this.db): Promise<'requeued' | 'failed' | 'lost'> {
    return reclaimRun(db, run, now);
  }

  recoverInterrupted(now: string): Promise<Recovered> {
    return recoverInterrupted(this.db, now);
  }
}
