import type { Kysely } from 'kysely';
import type { Database } from '../database.js';
import { databaseTime } from '../database-time.js';

/** A PROCESSING run whose process is gone (or presumed so): what taking it back needs. */
export interface InterruptedRun {
  readonly scenarioId: string;
  readonly sessionId: string;
  readonly attempts: number;
  readonly leaseOwner: string | null;
}

/** PROCESSING rows whose lease ran out by the database clock (or that never got one within `leaseMs` of starting). */
export function expiredRuns(db: Kysely<Database>, leaseMs: number): Promise<InterruptedRun[]> {
  return db
    .selectFrom('scenarios')
    .select(['id as scenarioId', 'session_id as sessionId', 'attempts', 'lease_owner as leaseOwner'])
    .where('status', '=', 'PROCESSING')
    .where((eb) =>
      eb.or([
        eb('lease_expires_at', '<', databaseTime(db, 0)),
        eb.and([eb('lease_expires_at', 'is', null), eb('started_at', '<', databaseTime(db, -leaseMs))]),
      ]),
    )
    .execute();
}
