import { sql, type Kysely, type RawBuilder } from 'kysely';
import { changeFor } from '../../model/run-state/changes.js';
import type { RunErrorCode } from '../../model/run-state/run-error.js';
import type { ThrownError } from '../../model/run-state/run-insight.js';
import type { Database } from '../database.js';
import { prepared } from '../prepared-query.js';
import { ENDED } from '../run-columns.js';
import { owned, wrote, type RunKey } from './run-row.js';

export interface RunFailure {
  readonly message: string;
  readonly code: RunErrorCode;
  /** The algorithm's result when only its KPIs failed: kept, so the author can see what they measured. */
  readonly resultJson?: string;
  /** What the domain's code threw, when that is why the run failed. */
  readonly thrown?: ThrownError;
}

/** What a failure's UPDATE binds (see `failValues`). */
export type FailValues = RunKey & { message: string; code: string; resultJson: string | null; now: string; errorClass: string | null; errorStack: string | null };

/** The failure's UPDATE of the run's row, applied only while the row is still the run's. */
function failRow(db: Kysely<Database>, v: FailValues) {
  const fail = changeFor('fail');
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
}

const failQuery = prepared(failRow);

/** The failure as the CTE `done` of a statement that goes on after it (PostgreSQL's end-and-claim-next), answering the row's keys. */
export function failureCte(db: Kysely<Database>, v: FailValues): RawBuilder<unknown> {
  return sql`done as (${failRow(db, v).returning(['seq', 'session_id'])})`;
}

/** The values `failRow` binds. */
export function failValues(key: RunKey, failure: RunFailure, now: string): FailValues {
  const thrown = failure.thrown;
  return {
    ...key,
    message: failure.message,
    code: failure.code,
    resultJson: failure.resultJson ?? null,
    now,
    errorClass: thrown?.class ?? null,
    errorStack: thrown ? JSON.stringify(thrown.stack) : null,
  };
}

/** A run's end FAILED with its error; false when the row was no longer this run's. */
export async function failRun(db: Kysely<Database>, key: RunKey, failure: RunFailure, now: string): Promise<boolean> {
  return wrote(await failQuery(db, failValues(key, failure, now)));
}
