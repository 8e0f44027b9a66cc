import type { Kysely } from 'kysely';
import type { Database } from '../database.js';
import { databaseTime } from '../database-time.js';
import { prepared } from '../prepared-query.js';
import { owned, wrote, type RunKey } from './run-row.js';

// Flushed like a progress write (see write-progress.ts): a lost renewal would bring the lease's end
// closer for every other process's reaper.
const renewQuery = prepared((db, v: RunKey & { progress: number; leaseMs: number }) =>
  owned(db, v, ['PROCESSING']).set({ progress: v.progress, lease_expires_at: databaseTime(db, v.leaseMs) }),
);

/** Renews the lease (by the database clock) and writes progress; false when the row is no longer this run's. */
export async function renewLease(db: Kysely<Database>, key: RunKey, progress: number, leaseMs: number): Promise<boolean> {
  return wrote(await renewQuery(db, { ...key, progress, leaseMs }));
}
