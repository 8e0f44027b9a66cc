import type { Kysely } from 'kysely';
import type { Database } from '../database.js';
import { databaseTime } from '../database-time.js';
import { appendLogLines, type LinesWrite } from '../run-log-lines.js';
import { owned, type RunKey } from './run-row.js';

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

/**
 * Writes what a run in flight reported (see `RunInsightWrite`), with its progress and lease; false
 * when the row is no longer this run's. With log lines, one transaction: the owned UPDATE first
 * (which holds the row), then the lines, so they never land for a run that lost its row.
 */
export async function writeRunInsight(db: Kysely<Database>, key: RunKey, write: RunInsightWrite): Promise<boolean> {
  const apply = async (on: Kysely<Database>): Promise<boolean> => {
    const row = await owned(on, key, ['PROCESSING'])
      .set({
        ...(write.progress === undefined ? {} : { progress: write.progress }),
        ...(write.leaseMs === undefined ? {} : { lease_expires_at: databaseTime(on, write.leaseMs) }),
        ...(write.reportJson === undefined ? {} : { report: write.reportJson }),
        ...(write.lines === undefined ? {} : { log_count: write.lines.count }),
      })
      .returning('seq')
      .executeTakeFirst();
    if (row === undefined) return false;
    if (write.lines) await appendLogLines(on, row.seq, write.lines);
    return true;
  };
  return write.lines ? db.transaction().execute(apply) : apply(db);
}
