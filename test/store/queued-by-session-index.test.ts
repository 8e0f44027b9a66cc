import { randomUUID } from 'node:crypto';
import { sql, type Kysely, type RawBuilder } from 'kysely';
import { describe, expect, it } from 'vitest';
import type { Database } from '../../src/store/database.js';
import { QUEUED, waitingSessions } from '../../src/store/runs/claim-conditions.js';
import { DIALECTS } from '../support/dialects.js';
import { queuedSession, useTestStore } from '../support/test-store.js';

/**
 * Migration 0035's partial index of queued rows: a wide claim finds its session's head and the
 * sessions that wait from it, at a cost that does not grow with the queue (before it, each claim of a
 * 1,000-run sweep sorted the session's queue and grouped every queued row).
 */
async function plan(db: Kysely<Database>, dialect: string, query: RawBuilder<unknown>): Promise<string> {
  if (dialect === 'sqlite') return (await sql<{ detail: string }>`explain query plan ${query}`.execute(db)).rows.map((r) => r.detail).join('\n');
  const rows = await sql<{ 'QUERY PLAN': string }>`explain ${query}`.execute(db);
  return rows.rows.map((r) => r['QUERY PLAN']).join('\n');
}

describe.each(DIALECTS)('the index of queued runs on %s', (dialect) => {
  const store = useTestStore(dialect);

  it('gives a session’s head without sorting its queue, and the waiting sessions by skipping through it', async () => {
    const db = store().db;
    // Three sessions with a few runs queued and many ended, as in a long-lived store, so that the
    // planners weigh the indexes as they would there.
    const sessions = [await queuedSession(store(), 5), await queuedSession(store(), 5), await queuedSession(store(), 5)];
    for (const { sessionId } of sessions) {
      for (let chunk = 0; chunk < 10; chunk++) {
        const rows = Array.from({ length: 100 }, (_, i) => ({
          id: randomUUID(),
          session_id: sessionId,
          tag: `ended ${chunk * 100 + i}`,
          dataset_key: 'items',
          algo_name: 'Sum',
          algo_params: '{}',
          data_params: '{}',
          status: 'COMPLETE' as const,
          progress: 1,
          attempts: 1,
          created_at: new Date().toISOString(),
        }));
        await db.insertInto('scenarios').values(rows).execute();
      }
    }
    await sql`analyze`.execute(db);
    const first = sessions[0]!.sessionId;

    const head = sql`select h.id from scenarios h where h.session_id = ${first} and h.status = ${QUEUED} order by h.queue_order, h.seq limit 1`;
    const headPlan = await plan(db, dialect, head);
    expect(headPlan).toContain('scenarios_queued_by_session');
    expect(headPlan).not.toMatch(dialect === 'sqlite' ? /TEMP B-TREE/ : /Sort/);

    const waiting = sql`select session_id from ${waitingSessions} as s`;
    const waitingPlan = await plan(db, dialect, waiting);
    expect(waitingPlan).toContain('scenarios_queued_by_session');
    expect(waitingPlan).not.toMatch(dialect === 'sqlite' ? /SCAN w\b|SCAN scenarios/ : /Seq Scan|HashAggregate|Group/);
    const found = (await waiting.execute(db)).rows as { session_id: string }[];
    expect(found.map((r) => r.session_id).sort()).toEqual(sessions.map((s) => s.sessionId).sort());

    // A session with nothing queued is not among them.
    await db.updateTable('scenarios').set({ status: 'COMPLETE' }).where('session_id', '=', first).execute();
    const after = (await waiting.execute(db)).rows as { session_id: string }[];
    expect(after.map((r) => r.session_id).sort()).toEqual(sessions.slice(1).map((s) => s.sessionId).sort());
  });
});
