import type { Kysely } from 'kysely';
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

const failQuery = prepared((db, v: RunKey & { message: string; code: string; resultJson: string | null; now: string; errorClass: string | null; errorStack: string | null }) => {
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
});

/** A run's end FAILED with its error; false when the row was no longer this run's. */
export async function failRun(db: Kysely<Database>, key: RunKey, failure: RunFailure, now: string): Promise<boolean> {
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
