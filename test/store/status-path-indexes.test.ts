import { sql, type Kysely } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { Database } from '../../src/store/database.js';
import { DIALECTS } from '../support/dialects.js';
import { useTestStore } from '../support/test-store.js';

/**
 * Migration 0019 drops `scenarios_by_status` and `scenarios_by_dataset`: the reads they served must
 * still be answered from an index, never by scanning `scenarios`.
 */
const READS = {
  'the per-session rule of a claim': sql`select 1 from scenarios p where p.session_id = 'x' and p.status = 'PROCESSING'`,
  'the sessions with a PROCESSING run': sql`select distinct session_id from scenarios where status = 'PROCESSING'`,
  'the queue tail a run request queues behind': sql`select max(queue_order) from scenarios where status in ('QUEUED', 'PROCESSING')`,
  'the scenarios of a dataset': sql`select id from scenarios where session_id = 'x' and dataset_key = 'd'`,
};

async function plan(db: Kysely<Database>, dialect: string, query: (typeof READS)[keyof typeof READS]): Promise<string> {
  if (dialect === 'sqlite') {
    const rows = await sql<{ detail: string }>`explain query plan ${query}`.execute(db);
    return rows.rows.map((r) => r.detail).join('\n');
  }
  // A near-empty table is scanned whatever indexes exist; asking for the plan without sequential
  // scans shows whether an index can answer at all.
  return db.transaction().execute(async (trx) => {
    await sql`set local enable_seqscan = off`.execute(trx);
    const rows = await sql<{ 'QUERY PLAN': string }>`explain ${query}`.execute(trx);
    return rows.rows.map((r) => r['QUERY PLAN']).join('\n');
  });
}

describe.each(DIALECTS)('the indexes on the status path on %s', (dialect) => {
  const store = useTestStore(dialect);

  it('no longer holds the two indexes others cover', async () => {
    const names =
      dialect === 'sqlite'
        ? (await sql<{ name: string }>`select name from sqlite_master where type = 'index' and tbl_name = 'scenarios'`.execute(store().db)).rows
        : (await sql<{ name: string }>`select indexname as name from pg_indexes where tablename = 'scenarios'`.execute(store().db)).rows;
    const indexes = names.map((r) => r.name);
    expect(indexes).not.toContain('scenarios_by_status');
    expect(indexes).not.toContain('scenarios_by_dataset');
    expect(indexes).toEqual(expect.arrayContaining(['scenarios_queue', 'scenarios_by_session_status', 'scenarios_by_session_dataset']));
  });

  it.each(Object.entries(READS))('answers %s from an index', async (_name, query) => {
    const text = await plan(store().db, dialect, query);
    expect(text).toMatch(/index/i);
    // SQLite: a SEARCH (an index range), never a SCAN of the table or of a whole index.
    expect(text).not.toMatch(dialect === 'sqlite' ? /SCAN scenarios/ : /Seq Scan/);
  });
});
