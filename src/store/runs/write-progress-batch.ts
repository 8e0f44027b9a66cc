import { sql, type Kysely } from 'kysely';
import { chunks } from '../chunks.js';
import type { Database } from '../database.js';
import { databaseTime } from '../database-time.js';
import { renewLease } from './renew-lease.js';
import type { RunKey } from './run-row.js';
import { writeProgress } from './write-progress.js';

/** One run's live progress to write, under its claim's key. */
export interface ProgressWrite {
  readonly key: RunKey;
  readonly progress: number;
}

/**
 * Writes the live progress of several runs (renewing their leases with `leaseMs`), and answers the
 * ids of the runs whose rows were still their own. On PostgreSQL one statement does them all (a
 * process's flush wrote each run's row with a round trip of its own: 0.7 a run in a 32-slot sweep of
 * 200 ms runs); on SQLite, whose statements are calls within the process, one each. Each row is
 * written only while it holds its run's token and is PROCESSING, as `writeProgress` and `renewLease`
 * write it, and commits with the WAL flush as they do (see write-progress.ts).
 */
export async function writeProgressBatch(db: Kysely<Database>, combinesWrites: boolean, writes: readonly ProgressWrite[], leaseMs?: number): Promise<Set<string>> {
  const owned = new Set<string>();
  if (!combinesWrites) {
    for (const { key, progress } of writes) {
      const wrote = leaseMs === undefined ? await writeProgress(db, key, progress) : await renewLease(db, key, progress, leaseMs);
      if (wrote) owned.add(key.id);
    }
    return owned;
  }
  for (const part of chunks(writes)) {
    const rows = part.map(({ key, progress }) => sql`(${key.id}::text, ${key.runToken}::text, ${progress}::double precision)`);
    const lease = leaseMs === undefined ? sql`` : sql`, lease_expires_at = ${databaseTime(db, leaseMs)}`;
    const { rows: written } = await sql<{ id: string }>`
      update scenarios s set progress = v.progress${lease}
      from (values ${sql.join(rows)}) as v (id, token, progress)
      where s.id = v.id and s.lease_owner = v.token and s.status = 'PROCESSING'
      returning s.id`.execute(db);
    for (const { id } of written) owned.add(id);
  }
  return owned;
}
