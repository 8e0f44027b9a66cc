import { sql, type ExpressionBuilder, type Kysely, type UpdateQueryBuilder, type UpdateResult } from 'kysely';
import { changeFor, type StatusChange } from '../model/run-state/changes.js';
import { CANCELLED_MESSAGE, INTERRUPTED_TWICE, type RunErrorCode } from '../model/run-state/run-error.js';
import { newSeed, type ThrownError } from '../model/run-state/run-insight.js';
import type { ScenarioEvent } from '../model/run-state/state-machine.js';
import { kpiUpsert, kpiValues, storeKpiValues } from './scenario-kpis.js';
import type { Database, StoredStatus } from './database.js';
import { databaseTime } from './database-time.js';
import type { DialectAdapter } from './dialect.js';
import { prepared, preparedByShape } from './prepared-query.js';
import { ENDED, NO_RUN, NOT_RUNNING } from './run-columns.js';
import { appendLogLines, deleteLogLines, type LinesWrite } from './run-log-lines.js';
import { recordColumns, runInputColumns, type ScenarioRecord, type ScenarioRef } from './scenarios-repository.js';

/**
 * Every write of run state, the one owner of those columns. Each transition takes its from-states
 * and target from the state machine (`changeFor`) and its cleared columns from `run-columns.ts`;
 * each is one conditional UPDATE, so of concurrent writers exactly one wins. Writes of a claimed run
 * also require its token (`lease_owner`): a run cancelled, deleted or taken over elsewhere never
 * writes its row again. Times that several hosts compare (leases, start) come from the database clock.
 */

/** Which run a write belongs to: the scenario and the token of its claim. */
export interface RunKey {
  readonly id: string;
  readonly runToken: string;
}

/** A scenario just moved to PROCESSING by `claim`: what a run needs of its row, and this start's facts. */
export interface ClaimedRow extends Pick<ScenarioRecord, 'id' | 'sessionId' | 'tag' | 'datasetKey' | 'algoName' | 'algoParamsJson' | 'dataParamsJson'> {
  /** Starts since the client queued it: 1, or 2 after one interruption. */
  readonly attempts: number;
  /** The database's time of the claim (ISO). */
  readonly startedAt: string;
  /** The seed of this run's `ctx.random`, stored on the row. */
  readonly seed: number;
}

export interface RunFailure {
  readonly message: string;
  readonly code: RunErrorCode;
  /** The algorithm's result when only its KPIs failed: kept, so the author can see what they measured. */
  readonly resultJson?: string;
  /** What the domain's code threw, when that is why the run failed. */
  readonly thrown?: ThrownError;
}

/**
 * A flush of a run in flight: its progress and, when they changed, its latest report and new log
 * lines; with `leaseMs` its lease is renewed too. At least one of `reportJson` and `lines`.
 */
export interface RunInsightWrite {
  readonly progress?: number;
  readonly leaseMs?: number;
  readonly reportJson?: string;
  readonly lines?: LinesWrite;
}

export interface InterruptedRun {
  readonly scenarioId: string;
  readonly sessionId: string;
  readonly attempts: number;
  readonly leaseOwner: string | null;
}

/** What became of interrupted runs: queued again after one interruption, FAILED after two. */
export interface Recovered {
  readonly requeued: InterruptedRun[];
  readonly failed: InterruptedRun[];
}

/** What a completed run stores: its result and KPI values. */
export interface CompletedRun {
  readonly resultJson: string;
  readonly kpis: Readonly<Record<string, number>>;
}

/** The session whose next run to claim once a run of it has ended, and the token (and lease) of that claim. */
export interface NextClaimRequest {
  readonly sessionId: string;
  readonly runToken: string;
  readonly leaseMs?: number;
}

/** A run's end as written (false: the row was no longer this run's), and the next run claimed with it. */
export interface EndedThenClaimed {
  readonly written: boolean;
  readonly next?: ClaimedRow;
}

type Status = StoredStatus;

const change = (event: ScenarioEvent) => changeFor(event);

function noneProcessingInSession(eb: ExpressionBuilder<Database, 'scenarios'>) {
  return eb.not(
    eb.exists(
      eb
        .selectFrom('scenarios as p')
        .select(sql<number>`1`.as('one'))
        .whereRef('p.session_id', '=', 'scenarios.session_id')
        .where('p.status', '=', 'PROCESSING'),
    ),
  );
}

/**
 * No scenario of the row's session was queued before it (queue order, then creation): a session's runs
 * start in the order they were queued even when claimed by id, as a job of its own is. Without it a
 * run whose job was put back (its session was busy) could be overtaken by the next run's job.
 */
function firstQueuedInSession(eb: ExpressionBuilder<Database, 'scenarios'>) {
  return eb.not(
    eb.exists(
      eb
        .selectFrom('scenarios as q')
        .select(sql<number>`1`.as('one'))
        .whereRef('q.session_id', '=', 'scenarios.session_id')
        .where('q.status', '=', 'QUEUED')
        .where((e) =>
          e.or([
            e('q.queue_order', '<', e.ref('scenarios.queue_order')),
            e.and([e('q.queue_order', '=', e.ref('scenarios.queue_order')), e('q.seq', '<', e.ref('scenarios.seq'))]),
          ]),
        ),
    ),
  );
}

function owned(db: Kysely<Database>, key: RunKey, from: readonly Status[]) {
  return db.updateTable('scenarios').where('id', '=', key.id).where('lease_owner', '=', key.runToken).where('status', 'in', from);
}

// The statements every run makes are compiled once (see prepared-query.ts).

const queueQuery = preparedByShape(
  (c: StatusChange) => `${c.from.join(',')}>${c.to}`,
  (db, c, v: ScenarioRef & { now: string }) =>
    db
      .updateTable('scenarios')
      .set({
        status: c.to,
        ...NO_RUN,
        queue_order: sql<number>`(select coalesce(max(q.queue_order), 0) + 1 from scenarios q where q.status in ('QUEUED', 'PROCESSING'))`,
        queued_at: v.now,
      })
      .where('session_id', '=', v.sessionId)
      .where('id', '=', v.id)
      .where('status', 'in', c.from)
      .returning(recordColumns),
);

/** Which row a claim takes: a given scenario, or the queue's head when it belongs to a given session. */
type ClaimTarget = 'id' | 'head-of-session';

interface ClaimShape {
  readonly leased: boolean;
  readonly target: ClaimTarget;
}

/**
 * Leased claims (distributed executor) set a lease that expires by the database clock. The head of
 * the queue is its oldest QUEUED scenario (by `queue_order`), whatever its session.
 */
const claimQuery = preparedByShape(
  (shape: ClaimShape) => `${shape.leased}:${shape.target}`,
  (db, shape, v: { id: string; sessionId: string; runToken: string; leaseMs: number; seed: number }) => {
    const start = change('start');
    const update = db.updateTable('scenarios').set((eb) => ({
      status: start.to,
      ...NOT_RUNNING,
      attempts: eb('attempts', '+', 1),
      started_at: databaseTime(db, 0),
      finished_at: null,
      error: null,
      error_code: null,
      lease_owner: v.runToken,
      lease_expires_at: shape.leased ? databaseTime(db, v.leaseMs) : null,
      // A gate's pair runs both sides with one seed (migration 0026); any other run draws a fresh one.
      seed: sql<number>`coalesce(pinned_seed, ${v.seed})`,
    }));
    const targeted =
      shape.target === 'id'
        ? update.where('id', '=', v.id).where(firstQueuedInSession)
        : update
            .where('id', '=', (eb) =>
              eb.selectFrom('scenarios as h').select('h.id').where('h.status', '=', 'QUEUED').orderBy('h.queue_order').orderBy('h.seq').limit(1),
            )
            .where('session_id', '=', v.sessionId);
    return targeted
      .where('status', 'in', start.from)
      .where(noneProcessingInSession)
      .returning([...runInputColumns, 'attempts', 'started_at as startedAt', 'seed']);
  },
);

/*
 * Progress flushes and lease renewals commit with the WAL flush (on `db`, not the claims'
 * connections), although a run makes one every 250 ms: a status poll reads a committed value before
 * its WAL is flushed, so an asynchronous commit lost in a crash of the database server would take
 * back a progress a client was shown (the wire promises it never decreases during a run), and a lost
 * renewal would bring the lease's end closer for every other process's reaper. Their cost is one
 * commit per flush of a running run, not per run: an Instant run makes none.
 */
const progressQuery = prepared((db, v: RunKey & { progress: number }) => owned(db, v, ['PROCESSING']).set({ progress: v.progress }));

const renewQuery = prepared((db, v: RunKey & { progress: number; leaseMs: number }) =>
  owned(db, v, ['PROCESSING']).set({ progress: v.progress, lease_expires_at: databaseTime(db, v.leaseMs) }),
);

type CompleteValues = RunKey & { resultJson: string; kpisJson: string; now: string };

/** The completion's UPDATE, started by `update` (a plain one, or one with the KPI rows' WITH). */
function completeRow(update: UpdateQueryBuilder<Database, 'scenarios', 'scenarios', UpdateResult>, v: CompleteValues) {
  const complete = change('complete');
  return update.where('id', '=', v.id).where('lease_owner', '=', v.runToken).where('status', 'in', complete.from).set({
    status: complete.to,
    ...ENDED,
    progress: 1,
    result: v.resultJson,
    kpi_values: v.kpisJson,
    error: null,
    error_code: null,
    finished_at: v.now,
  });
}

const completeQuery = prepared((db, v: CompleteValues) => completeRow(db.updateTable('scenarios'), v));

/**
 * PostgreSQL: the KPI rows and the completion in one statement (a data-modifying WITH), so one
 * round trip and one commit, hence one WAL flush, record a run. The KPI insert and the UPDATE see
 * the same snapshot; rows of a scenario the completion did not apply to are ignored (see `complete`).
 */
const completeWithKpisQuery = preparedByShape(
  (count: number) => String(count),
  (db, count, v: CompleteValues & Record<string, string | number>) =>
    completeRow(db.with('kpis', () => kpiUpsert(db, count, v)).updateTable('scenarios'), v),
);

const failQuery = prepared((db, v: RunKey & { message: string; code: string; resultJson: string | null; now: string; errorClass: string | null; errorStack: string | null }) => {
  const fail = change('fail');
  return owned(db, v, fail.from).set({
    status: fail.to,
    ...ENDED,
    result: v.resultJson,
    kpi_values: null,
    error: v.message,
    error_code: v.code,
    error_class: v.errorClass,
    error_stack: v.errorStack,
    finished_at: v.now,
  });
});

const wrote = (result: { readonly numAffectedRows?: bigint; readonly numUpdatedRows?: bigint }) =>
  Number(result.numAffectedRows ?? result.numUpdatedRows ?? 0) > 0;

export class RunsRepository {
  /** `dialect` picks the cheaper form of a write where the two differ (`combinesWrites`). */
  constructor(
    private readonly db: Kysely<Database>,
    private readonly dialect: DialectAdapter,
    /** Where claims are written: on PostgreSQL, connections whose commits do not wait for the WAL flush. */
    private readonly claims: Kysely<Database> = db,
  ) {}

  /**
   * Client `run` (and autorun): queues the scenario behind every queued or running one (FIFO by
   * `queue_order`) when its status is one of `c.from`. Answers the row as this change left it, or
   * undefined when another request changed it first or it does not exist. `db` is a transaction it
   * is one write of (a branch queued with the scenario it creates).
   */
  async queue(ref: ScenarioRef, c: StatusChange, now: string, db: Kysely<Database> = this.db): Promise<ScenarioRecord | undefined> {
    return (await queueQuery(db, c, { sessionId: ref.sessionId, id: ref.id, now })).rows[0];
  }

  /** Client `reset`: clears everything of the run when the status is one of `c.from`, its log lines too. */
  async reset(ref: ScenarioRef, c: StatusChange): Promise<ScenarioRecord | undefined> {
    const reset = await this.db
      .updateTable('scenarios')
      .set({ status: c.to, ...NO_RUN })
      .where('session_id', '=', ref.sessionId)
      .where('id', '=', ref.id)
      .where('status', 'in', c.from)
      .returning(recordColumns)
      .executeTakeFirst();
    // Hidden already (log_count is 0); removed to free their space.
    if (reset) await deleteLogLines(this.db, ref.id);
    return reset;
  }

  /**
   * Client `cancel`: a QUEUED or PROCESSING scenario ends FAILED with code CANCELLED and is kept. Its
   * run (if any) loses its token, so nothing it writes afterwards lands. Undefined when the change
   * did not apply (another request or the run's own outcome won).
   */
  cancel(ref: ScenarioRef, now: string): Promise<ScenarioRecord | undefined> {
    const cancel = change('cancel');
    return this.db
      .updateTable('scenarios')
      .set({ status: cancel.to, ...ENDED, result: null, kpi_values: null, error: CANCELLED_MESSAGE, error_code: 'CANCELLED', finished_at: now })
      .where('session_id', '=', ref.sessionId)
      .where('id', '=', ref.id)
      .where('status', 'in', cancel.from)
      .returning(recordColumns)
      .executeTakeFirst();
  }

  /** The session's QUEUED and PROCESSING scenarios (to stop before the session goes). */
  async activeIds(sessionId: string): Promise<string[]> {
    const rows = await this.db.selectFrom('scenarios').select('id').where('session_id', '=', sessionId).where('status', 'in', ['QUEUED', 'PROCESSING']).execute();
    return rows.map((r) => r.id);
  }

  /** A scenario's status and session, if it exists (a run job checking it still has work). */
  async statusOf(id: string): Promise<{ status: StoredStatus; sessionId: string } | undefined> {
    const row = await this.db.selectFrom('scenarios').select(['status', 'session_id']).where('id', '=', id).executeTakeFirst();
    return row && { status: row.status, sessionId: row.session_id };
  }

  /**
   * Moves a QUEUED scenario to PROCESSING under `runToken`, unless another request or process
   * changed it first or its session already has a PROCESSING scenario (the per-session rule, held by
   * the database itself). With `leaseMs` the run is leased until that long after the database's now.
   */
  async claim(id: string, runToken: string, leaseMs?: number): Promise<ClaimedRow | undefined> {
    return this.claimWhere('id', { id, sessionId: '' }, runToken, leaseMs);
  }

  /**
   * `claim` of the queue's head (its oldest QUEUED scenario, whatever the session), only when it
   * belongs to `sessionId`: a process that runs that session's queue may go on with its next run
   * without letting an older run of another session wait.
   */
  async claimHeadOfSession(sessionId: string, runToken: string, leaseMs?: number): Promise<ClaimedRow | undefined> {
    return this.claimWhere('head-of-session', { id: '', sessionId }, runToken, leaseMs);
  }

  /**
   * On PostgreSQL a claim commits without waiting for its WAL flush (on the `claims` connections):
   * every flushed commit costs a disk sync, and a run makes several. Only a crash of the database
   * server itself can lose it, and then it is lost with its `started` event (written in the same
   * transaction) and the scenario is simply QUEUED again, as an interrupted run would be: whatever
   * the run writes later needs the lost claim's token and is refused. The run's completion is
   * flushed, and flushes the WAL up to and including the claim.
   */
  private claimWhere(target: ClaimTarget, at: { id: string; sessionId: string }, runToken: string, leaseMs: number | undefined): Promise<ClaimedRow | undefined> {
    return this.claimOn(this.claims, target, at, runToken, leaseMs);
  }

  private async claimOn(
    db: Kysely<Database>,
    target: ClaimTarget,
    at: { id: string; sessionId: string },
    runToken: string,
    leaseMs: number | undefined,
  ): Promise<ClaimedRow | undefined> {
    const shape = { leased: leaseMs !== undefined, target };
    const seed = newSeed();
    const row = (await claimQuery(db, shape, { ...at, runToken, leaseMs: leaseMs ?? 0, seed })).rows[0];
    // The claim always sets started_at and seed; the column types allow null for rows that never started.
    return row && { ...row, startedAt: row.startedAt ?? new Date().toISOString(), seed: row.seed ?? seed };
  }

  async writeProgress(key: RunKey, progress: number): Promise<boolean> {
    return wrote(await progressQuery(this.db, { ...key, progress }));
  }

  /** Renews the lease (by the database clock) and writes progress; false when the row is no longer this run's. */
  async renewLease(key: RunKey, progress: number, leaseMs: number): Promise<boolean> {
    return wrote(await renewQuery(this.db, { ...key, progress, leaseMs }));
  }

  /**
   * Writes what a run in flight reported (see `RunInsightWrite`), with its progress and lease; false
   * when the row is no longer this run's. With log lines, one transaction: the owned UPDATE first
   * (which holds the row), then the lines, so they never land for a run that lost its row.
   */
  async writeRunInsight(key: RunKey, write: RunInsightWrite): Promise<boolean> {
    const apply = async (db: Kysely<Database>): Promise<boolean> => {
      const row = await owned(db, key, ['PROCESSING'])
        .set({
          ...(write.progress === undefined ? {} : { progress: write.progress }),
          ...(write.leaseMs === undefined ? {} : { lease_expires_at: databaseTime(db, write.leaseMs) }),
          ...(write.reportJson === undefined ? {} : { report: write.reportJson }),
          ...(write.lines === undefined ? {} : { log_count: write.lines.count }),
        })
        .returning('seq')
        .executeTakeFirst();
      if (row === undefined) return false;
      if (write.lines) await appendLogLines(db, row.seq, write.lines);
      return true;
    };
    return write.lines ? this.db.transaction().execute(apply) : apply(this.db);
  }

  async complete(key: RunKey, outcome: CompletedRun, now: string): Promise<boolean> {
    return this.completeOn(this.db, key, outcome, now);
  }

  async fail(key: RunKey, failure: RunFailure, now: string): Promise<boolean> {
    return this.failOn(this.db, key, failure, now);
  }

  /**
   * Complete-and-claim-next: `complete`, then, in the same transaction, `claimHeadOfSession` of the
   * run's session for `next`. A session's queue then costs one commit per run and no wake-up between
   * its runs. Nothing is claimed when the completion did not apply (the row was no longer this run's).
   */
  async completeThenClaimNext(key: RunKey, outcome: CompletedRun, now: string, next: NextClaimRequest): Promise<EndedThenClaimed> {
    return this.endThenClaimNext((db) => this.completeOn(db, key, outcome, now), next);
  }

  /** `fail`, then the session's next run claimed in the same transaction (see `completeThenClaimNext`). */
  async failThenClaimNext(key: RunKey, failure: RunFailure, now: string, next: NextClaimRequest): Promise<EndedThenClaimed> {
    return this.endThenClaimNext((db) => this.failOn(db, key, failure, now), next);
  }

  private endThenClaimNext(end: (db: Kysely<Database>) => Promise<boolean>, next: NextClaimRequest): Promise<EndedThenClaimed> {
    return this.db.transaction().execute(async (trx) => {
      if (!(await end(trx))) return { written: false };
      // The run just ended holds no PROCESSING row any more: the claim's per-session rule sees that
      // within this transaction, and any other writer waits for its commit.
      const claimed = await this.claimOn(trx, 'head-of-session', { id: '', sessionId: next.sessionId }, next.runToken, next.leaseMs);
      return claimed ? { written: true, next: claimed } : { written: true };
    });
  }

  private async completeOn(db: Kysely<Database>, key: RunKey, outcome: CompletedRun, now: string): Promise<boolean> {
    // The sortable copy of the KPI values first (or with it): should the completion not apply
    // (cancelled), rows of a scenario that is not COMPLETE are ignored by the list queries.
    const values = { ...key, resultJson: outcome.resultJson, kpisJson: JSON.stringify(outcome.kpis), now };
    const count = Object.keys(outcome.kpis).length;
    if (this.dialect.combinesWrites && count > 0) {
      return wrote(await completeWithKpisQuery(db, count, { ...kpiValues(key.id, outcome.kpis), ...values }));
    }
    await storeKpiValues(db, key.id, outcome.kpis);
    return wrote(await completeQuery(db, values));
  }

  private async failOn(db: Kysely<Database>, key: RunKey, failure: RunFailure, now: string): Promise<boolean> {
    const thrown = failure.thrown;
    return wrote(
      await failQuery(db, {
        ...key,
        message: failure.message,
        code: failure.code,
        resultJson: failure.resultJson ?? null,
        now,
        errorClass: thrown?.class ?? null,
        errorStack: thrown ? JSON.stringify(thrown.stack) : null,
      }),
    );
  }

  /**
   * Puts a run stopped by a shutdown back at its place in the queue. The attempt is given back: a
   * graceful stop is not an interruption (only a crash counts towards failing the scenario).
   */
  async requeueStopped(key: RunKey): Promise<boolean> {
    const requeue = change('requeue');
    const result = await owned(this.db, key, requeue.from)
      .set((eb) => ({ status: requeue.to, ...NOT_RUNNING, attempts: eb('attempts', '-', 1) }))
      .executeTakeFirst();
    return wrote(result);
  }

  /** PROCESSING rows whose lease ran out by the database clock (or that never got one within `leaseMs` of starting). */
  expiredRuns(leaseMs: number): Promise<InterruptedRun[]> {
    return this.db
      .selectFrom('scenarios')
      .select(['id as scenarioId', 'session_id as sessionId', 'attempts', 'lease_owner as leaseOwner'])
      .where('status', '=', 'PROCESSING')
      .where((eb) =>
        eb.or([
          eb('lease_expires_at', '<', databaseTime(this.db, 0)),
          eb.and([eb('lease_expires_at', 'is', null), eb('started_at', '<', databaseTime(this.db, -leaseMs))]),
        ]),
      )
      .execute();
  }

  /**
   * Takes one interrupted run back: queued again (keeping its place) after one interruption, FAILED
   * (code INTERRUPTED) after two. Conditional on the row being unchanged since it was read, so of
   * several reapers exactly one acts.
   */
  async reclaim(run: InterruptedRun, now: string, db: Kysely<Database> = this.db): Promise<'requeued' | 'failed' | 'lost'> {
    const again = run.attempts < 2;
    const c = change(again ? 'requeue' : 'fail');
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

  /**
   * Restart recovery (docs/api/contract.md, "Life cycle"): every scenario found PROCESSING when the only
   * executor of the store starts was interrupted by the death of the process that ran it.
   */
  async recoverInterrupted(now: string): Promise<Recovered> {
    return this.db.transaction().execute(async (trx) => {
      const rows = await trx
        .selectFrom('scenarios')
        .select(['id as scenarioId', 'session_id as sessionId', 'attempts', 'lease_owner as leaseOwner'])
        .where('status', '=', 'PROCESSING')
        .execute();
      const recovered: Recovered = { requeued: [], failed: [] };
      for (const row of rows) {
        const outcome = await this.reclaim(row, now, trx);
        if (outcome !== 'lost') recovered[outcome].push(row);
      }
      return recovered;
    });
  }
}
