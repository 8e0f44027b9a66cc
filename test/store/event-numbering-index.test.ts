import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { EventLog } from '../../src/store/event-log.js';
import { useTestStore } from '../support/test-store.js';

/**
 * PostgreSQL numbers events after they commit (`scenarist_number_events()`, migration 0034). A
 * numbering must find the unnumbered events by their partial index, on both sides of its UPDATE's
 * join: read off `pg_stat_xact_user_tables`, which counts the scans of the current transaction.
 */
describe('numbering events on postgres', () => {
  const store = useTestStore('postgres');

  it('numbers a new event without scanning the whole log', async () => {
    const { db } = store();
    const log = new EventLog(db, store().dialect);
    // A log of a few thousand numbered events, where the planner's hash join read every row.
    await sql`insert into event_log (session_id, type, at, data) select 'main', 'scenario.created', '2026-12-02T00:00:00.000Z', '{}' from generate_series(1, 3000)`.execute(db);
    await log.number();
    await sql`analyze event_log`.execute(db);
    await sql`insert into event_log (session_id, type, at, data) values ('main', 'scenario.queued', '2026-12-02T00:00:01.000Z', '{}')`.execute(db);
    const scans = await db.transaction().execute(async (trx) => {
      const numbered = await sql<{ n: string }>`select scenarist_number_events() as n`.execute(trx);
      const stats = await sql<{ seq_scan: string }>`select seq_scan from pg_stat_xact_user_tables where relname = 'event_log'`.execute(trx);
      return { numbered: Number(numbered.rows[0]!.n), seqScans: Number(stats.rows[0]?.seq_scan ?? 0) };
    });
    expect(scans).toEqual({ numbered: 1, seqScans: 0 });
    const last = await sql<{ id: string; type: string }>`select id, type from event_log order by seq desc limit 1`.execute(db);
    expect(last.rows[0]).toEqual({ id: String(await log.lastId()), type: 'scenario.queued' });
  });
});
