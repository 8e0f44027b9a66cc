import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { openPostgres, UNFLUSHED_APPLICATION_NAME } from '../../src/store/postgres/postgres-connection.js';
import { queuedSession, useTestStore } from '../support/test-store.js';

const synchronousCommit = async (db: ReturnType<typeof openPostgres>) =>
  (await sql<{ synchronous_commit: string }>`show synchronous_commit`.execute(db)).rows[0]!.synchronous_commit;

// PostgreSQL only: SQLite commits are never flushed one by one (`synchronous = NORMAL`).
describe('claims on PostgreSQL commit without waiting for the WAL flush', () => {
  const store = useTestStore('postgres');

  it('sets synchronous_commit off for a whole session of the unflushed connections, and only there', async () => {
    const flushed = openPostgres(store.databaseUrl(), { maxConnections: 1 });
    const unflushed = openPostgres(store.databaseUrl(), { maxConnections: 1, unflushed: true });
    try {
      expect(await synchronousCommit(flushed)).toBe('on');
      expect(await synchronousCommit(unflushed)).toBe('off');
      // A session setting, not one statement's: a later transaction on the connection has it too.
      await unflushed.transaction().execute(async (trx) => expect(await synchronousCommit(trx)).toBe('off'));
    } finally {
      await flushed.destroy();
      await unflushed.destroy();
    }
  });

  it('writes a claim on the unflushed connections, with a statement that sets nothing itself', async () => {
    const { ids } = await queuedSession(store(), 1);
    expect((await store().runs.claim(ids[0]!, randomUUID()))?.id).toBe(ids[0]);
    const admin = new pg.Client({ connectionString: store.databaseUrl() });
    await admin.connect();
    try {
      const backends = await admin.query<{ query: string }>('select query from pg_stat_activity where datname = current_database() and application_name = $1', [
        UNFLUSHED_APPLICATION_NAME,
      ]);
      // The last statement of the claim's connection is the claim itself: an update of the scenario.
      expect(backends.rows.map((r) => r.query)).toEqual([expect.stringMatching(/^update "scenarios" set "status"/)]);
      expect(backends.rows[0]!.query).not.toMatch(/synchronous_commit/);
    } finally {
      await admin.end();
    }
  });
});
