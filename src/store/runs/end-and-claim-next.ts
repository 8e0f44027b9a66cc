import { sql, type Kysely, type RawBuilder } from 'kysely';
import { newSeed } from '../../model/run-state/run-insight.js';
import type { Database } from '../database.js';
import { preparedByShape, rawStatement } from '../prepared-query.js';
import { claimAfterEnd, claimedRowOf, type ClaimReturned, type ClaimValues } from './claim-run.js';
import { completionCtes, explainedValues, type CompletedRun, type ExplainedValues } from './complete-run.js';
import type { EndedThenClaimed, NextClaimRequest } from './end-then-claim-next.js';
import { failValues, failureCte, type FailValues, type RunFailure } from './fail-run.js';
import type { RunKey } from './run-row.js';

/**
 * PostgreSQL's complete-and-claim-next as one statement: a run's end (the CTE `done`, with its KPI
 * rows and explanation row) and the claim of its session's next run (`next`, which claims nothing
 * unless `done` applied), in one data-modifying WITH. One round trip and one commit, where the
 * transaction of `endThenClaimNext` took four (`begin`, the end, the claim, `commit`); the claim sees
 * the statement's snapshot, in which the ended run is still PROCESSING, so it leaves that run out of
 * its counts (`claimAfterEnd`). The end's row is updated first (the claim reads `done`), so its
 * life-cycle event is logged before the next run's. An explanation with violations' chunks still
 * takes the transaction (its chunks follow the completion).
 */

/** Which statement: how the run ended (with how many KPI rows, explained or not), and the claim's terms. */
interface Shape {
  readonly end: 'complete' | 'fail';
  readonly kpis: number;
  readonly explained: boolean;
  readonly leased: boolean;
  readonly wide: boolean;
}

/** The next run's claim values, named apart from the end's (whose `id` and `runToken` are the ended run's). */
interface NextValues {
  readonly sessionId: string;
  readonly nextToken: string;
  readonly leaseMs: number;
  readonly seed: number;
  readonly max: number;
}

type Values = (ExplainedValues | FailValues) & NextValues;

const endAndClaimQuery = preparedByShape(
  (s: Shape) => `${s.end}:${s.kpis}:${s.explained}:${s.leased}:${s.wide}`,
  (db, s: Shape, v: Values) => {
    const end = s.end === 'complete' ? completionCtes(db, s.kpis, s.explained, v as ExplainedValues) : failureCte(db, v as FailValues);
    const claim: Partial<ClaimValues> = {
      sessionId: v.sessionId,
      runToken: v.nextToken,
      seed: v.seed,
      ...(s.leased ? { leaseMs: v.leaseMs } : {}),
      ...(s.wide ? { max: v.max } : { endedId: v.id }),
    };
    const statement: RawBuilder<Ended> = sql`
      with ${end}, next as (${claimAfterEnd(db, { leased: s.leased, wide: s.wide }, claim)})
      select (select count(*) from done) as written, next.* from (select 1) as one left join next on true`;
    return rawStatement(db, statement);
  },
);

/** The statement's one row: whether the end applied, and the claimed row's columns (all null when none was claimed). */
type Ended = { written: string | number } & { [K in keyof ClaimReturned]: ClaimReturned[K] | null };

async function endAndClaim(db: Kysely<Database>, shape: Omit<Shape, 'leased' | 'wide'>, end: ExplainedValues | FailValues, next: NextClaimRequest): Promise<EndedThenClaimed> {
  const seed = newSeed();
  const maxRunning = next.maxRunning ?? 1;
  const values: Values = { ...end, sessionId: next.sessionId, nextToken: next.runToken, leaseMs: next.leaseMs ?? 0, seed, max: maxRunning };
  const fullShape: Shape = { ...shape, leased: next.leaseMs !== undefined, wide: maxRunning > 1 };
  const row = (await endAndClaimQuery(db, fullShape, values)).rows[0];
  if (row === undefined || Number(row.written) === 0) return { written: false };
  if (row.id === null) return { written: true };
  const { written: _written, ...claimed } = row;
  return { written: true, next: claimedRowOf(claimed as ClaimReturned, seed) };
}

/** Whether `endAndClaimCompletion` can record `outcome` (an explanation with violations' chunks takes the transaction). */
export const completesInOneStatement = (outcome: CompletedRun) => (outcome.explanation?.violationChunks.length ?? 0) === 0;

/** PostgreSQL: a run's completion and its session's next claim as one statement (see the top of this file). */
export function endAndClaimCompletion(db: Kysely<Database>, key: RunKey, outcome: CompletedRun, now: string, next: NextClaimRequest): Promise<EndedThenClaimed> {
  const shape = { end: 'complete' as const, kpis: Object.keys(outcome.kpis).length, explained: outcome.explanation !== undefined };
  return endAndClaim(db, shape, explainedValues(key, outcome, now), next);
}

/** PostgreSQL: a run's failure and its session's next claim as one statement (see the top of this file). */
export function endAndClaimFailure(db: Kysely<Database>, key: RunKey, failure: RunFailure, now: string, next: NextClaimRequest): Promise<EndedThenClaimed> {
  return endAndClaim(db, { end: 'fail', kpis: 0, explained: false }, failValues(key, failure, now), next);
}
