import { sql, type ExpressionBuilder, type Kysely, type RawBuilder } from 'kysely';
import { changeFor } from '../../model/run-state/changes.js';
import { newSeed } from '../../model/run-state/run-insight.js';
import type { Database } from '../database.js';
import { databaseTime } from '../database-time.js';
import { dialectAdapterOf, type DialectAdapter } from '../dialect.js';
import { preparedByShape } from '../prepared-query.js';
import { NOT_RUNNING } from '../run-columns.js';
import { runInputColumns, type ScenarioRecord } from '../scenarios-repository.js';
import { fairPick, firstQueuedInSession, noneProcessingInSession, processingInSession, QUEUED } from './claim-conditions.js';

/** A scenario just moved to PROCESSING by a claim: what a run needs of its row, and this start's facts. */
export interface ClaimedRow extends Pick<ScenarioRecord, 'id' | 'sessionId' | 'tag' | 'datasetKey' | 'algoName' | 'algoParamsJson' | 'dataParamsJson'> {
  /** Starts since the client queued it: 1, or 2 after one interruption. */
  readonly attempts: number;
  /** The database's time of the claim (ISO). */
  readonly startedAt: string;
  /** The seed of this run's `ctx.random`, stored on the row. */
  readonly seed: number;
  /**
   * The version of its dataset the run computes on (its `dataset_versions` seq and number), read by
   * the claim itself so that the run's thread need not ask; absent for a dataset without versions.
   */
  readonly datasetVersion?: { readonly seq: number; readonly versionNo: number };
}

/**
 * Which row a claim takes: a given scenario, the queue's head when it belongs to a given session, or
 * (`nextInSession`, only inside the transaction that just ended a run of that session) the session's
 * next run, which takes the slot the ended run freed.
 */
export type ClaimTarget = { readonly id: string } | { readonly headOfSession: string } | { readonly nextInSession: string };

/** How a claim is made: under which token, leased or not, and how many of a session may run at once. */
export interface ClaimTerms {
  readonly runToken: string;
  /** Leased claims (distributed executor): the lease runs this long after the database's now. */
  readonly leaseMs?: number;
  /** `max_running_per_session` (default 1). */
  readonly maxRunning?: number;
}

interface ClaimShape {
  readonly leased: boolean;
  readonly target: 'id' | 'head-of-session' | 'next-in-session' | 'after-end';
  /** Whether the session may hold more than one PROCESSING scenario (`max_running_per_session` above 1). */
  readonly wide: boolean;
}

/**
 * The current version of the claimed row's dataset: what the claim records as `result_dataset_version`
 * (by trigger, migration 0027), which SQLite's trigger writes after RETURNING is computed.
 */
const currentVersion = (eb: ExpressionBuilder<Database, 'scenarios'>) =>
  eb
    .selectFrom('datasets as d')
    .innerJoin('dataset_versions as dv', (join) => join.onRef('dv.session_id', '=', 'd.session_id').onRef('dv.key', '=', 'd.key').onRef('dv.version_no', '=', 'd.version_no'))
    .whereRef('d.session_id', '=', 'scenarios.session_id')
    .whereRef('d.key', '=', 'scenarios.dataset_key');

/** The version columns a claim answers beside the row's own (see `currentVersion`). */
const versionColumns = (eb: ExpressionBuilder<Database, 'scenarios'>) => [
  currentVersion(eb).select('dv.seq').as('versionSeq'),
  currentVersion(eb).select('dv.version_no').as('versionNo'),
];

/**
 * A session's first QUEUED scenario that no other transaction is claiming. Several claims of one
 * session at once (its runs' ends, wake jobs) each take a different row on PostgreSQL: a head another
 * transaction holds is skipped, rather than waited for and then found taken, which would end the
 * claim with nothing while slots stay free. Their starts stay in queue order up to those in flight
 * together.
 */
const sessionHead = (db: Kysely<Database>, eb: ExpressionBuilder<Database, 'scenarios'>, sessionId: string) =>
  dialectAdapterOf(db).claimingRows(
    eb.selectFrom('scenarios as h').select('h.id').where('h.session_id', '=', sessionId).where('h.status', '=', QUEUED).orderBy('h.queue_order').orderBy('h.seq').limit(1),
  );

/** What a claim's statement binds; `endedId` only for a claim in the statement that ends a run. */
export interface ClaimValues {
  id: string;
  sessionId: string;
  runToken: string;
  leaseMs: number;
  seed: number;
  max: number;
  endedId: string;
}

/**
 * The claim's UPDATE. Leased claims (distributed executor) set a lease that expires by the database
 * clock. The head of the queue is its oldest QUEUED scenario (by `queue_order`), whatever its session.
 */
function claimUpdate(db: Kysely<Database>, shape: ClaimShape, v: Partial<ClaimValues>) {
  const start = changeFor('start');
  const update = db.updateTable('scenarios').set((eb) => ({
    status: start.to,
    ...NOT_RUNNING,
    attempts: eb('attempts', '+', 1),
    started_at: databaseTime(db, 0),
    finished_at: null,
    error: null,
    error_code: null,
    lease_owner: v.runToken!,
    lease_expires_at: shape.leased ? databaseTime(db, v.leaseMs!) : null,
    // A gate's pair runs both sides with one seed (migration 0026); any other run draws a fresh one.
    seed: sql<number>`coalesce(pinned_seed, ${v.seed!})`,
  })).where('status', 'in', start.from);
  /** What every claim answers: the run's inputs, its start and seed, and its dataset's version. */
  const claimed = (targeted: typeof update) => targeted.returning([...runInputColumns, 'attempts', 'started_at as startedAt', 'seed']).returning(versionColumns);
  if (shape.target === 'after-end') {
    // In the statement that ends a run of the session (`end-and-claim-next.ts`), whose snapshot still
    // holds the ended run as PROCESSING: it is not counted. Nothing is claimed unless the end applied.
    const ended = sql<boolean>`exists (select 1 from done)`;
    const targeted = shape.wide
      ? update
          .where('id', '=', (eb) => sessionHead(db, eb, v.sessionId!))
          .where((eb) => fairPick(eb, v.max!, { endingInSession: true }))
      : update
          .where('id', '=', (eb) => queueHead(eb))
          .where('session_id', '=', v.sessionId!)
          .where((eb) => noneProcessingInSession(eb, v.endedId));
    return claimed(targeted.where(ended));
  }
  if (shape.wide && shape.target === 'next-in-session') {
    // The ended run's slot passes to the session's next run: the session's count of PROCESSING rows
    // stays as it was, so it is not counted again, and no turn on the session's key is taken.
    return claimed(update.where('id', '=', (eb) => sessionHead(db, eb, v.sessionId!)).where((eb) => fairPick(eb, v.max!)));
  }
  if (shape.wide) {
    // Up to `max` of the session at once, started in its FIFO order, and only when fair (see `fairPick`).
    const targeted =
      shape.target === 'id'
        ? update
            .where('id', '=', v.id!)
            .where(firstQueuedInSession)
            .where((eb) => fairPick(eb, v.max!))
        : update.where('id', '=', (eb) => sessionHead(db, eb, v.sessionId!)).where((eb) => fairPick(eb, v.max!));
    return claimed(targeted.where((eb) => eb(processingInSession(eb), '<', v.max!)));
  }
  // One at a time per session: a run's next is the whole queue's head, when it is the session's.
  const targeted =
    shape.target === 'id'
      ? update.where('id', '=', v.id!).where(firstQueuedInSession)
      : update.where('id', '=', (eb) => queueHead(eb)).where('session_id', '=', v.sessionId!);
  return claimed(targeted.where((eb) => noneProcessingInSession(eb)));
}

/** The whole queue's head: its oldest QUEUED scenario, whatever its session. */
const queueHead = (eb: ExpressionBuilder<Database, 'scenarios'>) =>
  eb.selectFrom('scenarios as h').select('h.id').where('h.status', '=', QUEUED).orderBy('h.queue_order').orderBy('h.seq').limit(1);

const claimQuery = preparedByShape((shape: ClaimShape) => `${shape.leased}:${shape.target}:${shape.wide}`, claimUpdate);

/**
 * The claim of a session's next run as part of the statement that ends a run of it (PostgreSQL's
 * end-and-claim-next, `end-and-claim-next.ts`): it reads the CTE `done` (the ended row), and binds
 * `sessionId`, `runToken`, `leaseMs` (leased), `seed`, `max` (wide) or `endedId` (one at a time).
 */
export function claimAfterEnd(db: Kysely<Database>, terms: { leased: boolean; wide: boolean }, v: Partial<ClaimValues>): RawBuilder<unknown> {
  return sql`${claimUpdate(db, { ...terms, target: 'after-end' }, v)}`;
}

/**
 * Moves a QUEUED scenario to PROCESSING under `terms.runToken`, unless another request or process
 * changed it first or its session already has as many PROCESSING scenarios as it may (the
 * per-session rule, held by the database itself): a given scenario (when no earlier run of its
 * session waits), or the queue's head when it belongs to a given session (with `maxRunning` above 1:
 * the session's own head, when the session has a free slot and is the fair pick, see `fairPick`).
 * With `leaseMs` the run is leased until that long after the database's now. `db` is where the claim
 * is written: the store's claims connections, or the transaction that records a run's end.
 */
export async function claimRun(db: Kysely<Database>, dialect: DialectAdapter, target: ClaimTarget, terms: ClaimTerms): Promise<ClaimedRow | undefined> {
  const maxRunning = terms.maxRunning ?? 1;
  const at = 'id' in target ? { id: target.id, sessionId: '' } : { id: '', sessionId: 'headOfSession' in target ? target.headOfSession : target.nextInSession };
  const shape: ClaimShape = { leased: terms.leaseMs !== undefined, target: 'id' in target ? 'id' : 'headOfSession' in target ? 'head-of-session' : 'next-in-session', wide: maxRunning > 1 };
  const seed = newSeed();
  const once = async (on: Kysely<Database>) => {
    // Wide claims that take a free slot count the session's PROCESSING rows: two processes counting
    // at once on PostgreSQL could both see a free slot, so those claims take turns on its key.
    if (shape.wide && shape.target !== 'next-in-session') await dialect.holdKey(on, `scenarist:session-claims:${at.sessionId || (await sessionOf(on, at.id))}`);
    return (await claimQuery(on, shape, { ...at, runToken: terms.runToken, leaseMs: terms.leaseMs ?? 0, seed, max: maxRunning })).rows[0];
  };
  const row = shape.wide && !db.isTransaction ? await db.transaction().execute(once) : await once(db);
  return row ? claimedRowOf(row, seed) : undefined;
}

/** A claim's returned row as the run needs it (`seed`: the one the claim bound). */
export function claimedRowOf(row: ClaimReturned, seed: number): ClaimedRow {
  const { versionSeq, versionNo, ...claimed } = row;
  // The claim always sets started_at and seed; the column types allow null for rows that never started.
  return {
    ...claimed,
    startedAt: claimed.startedAt ?? new Date().toISOString(),
    seed: claimed.seed ?? seed,
    ...(versionSeq != null && versionNo != null ? { datasetVersion: { seq: Number(versionSeq), versionNo: Number(versionNo) } } : {}),
  };
}

/** What a claim's statement returns. */
export type ClaimReturned = NonNullable<Awaited<ReturnType<typeof claimQuery>>['rows'][number]>;

async function sessionOf(db: Kysely<Database>, id: string): Promise<string> {
  const row = await db.selectFrom('scenarios').select('session_id').where('id', '=', id).executeTakeFirst();
  return row?.session_id ?? '';
}
