import type { Kysely } from 'kysely';
import type { Database } from '../database.js';
import { prepared } from '../prepared-query.js';
import { owned, wrote, type RunKey } from './run-row.js';

/*
 * Progress flushes commit with the WAL flush (on the store's `db`, not the claims' connections),
 * although a run makes one every 250 ms: a status poll reads a committed value before its WAL is
 * flushed, so an asynchronous commit lost in a crash of the database server would take back a
 * progress a client was shown (the wire promises it never decreases during a run). Their cost is one
 * commit per flush of a running run, not per run: an Instant run makes none.
 */
const progressQuery = prepared((db, v: RunKey & { progress: number }) => owned(db, v, ['PROCESSING']).set({ progress: v.progress }));

/** Writes a run's live progress; false when the row is no longer this run's. */
export async function writeProgress(db: Kysely<Database>, key: RunKey, progress: number): Promise<boolean> {
  return wrote(await progressQuery(db, { ...key, progress }));
}
