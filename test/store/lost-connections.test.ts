import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openGraphilePool } from '../../src/executor/distributed/graphile-pool.js';
import { createTestDatabase, type TestDatabase } from '../support/dialects.js';
import { terminateBackends } from '../support/terminate-backends.js';

/**
 * graphile-worker's pool, as it is once the runner has stopped and taken its own listeners away (or
 * before it starts): the server ending its connections must not crash the process. Without the
 * pool's own listeners, the idle client's end throws an uncaught exception, which fails this run.
 */
describe('graphile-worker connections ended by PostgreSQL', () => {
  let db: TestDatabase;
  let database: string;
  beforeAll(async () => {
    db = await createTestDatabase('postgres');
    database = new URL(db.url).pathname.slice(1);
  });
  afterAll(() => db?.drop());

  it('drops an idle connection the server ended, and the next query opens a fresh one', async () => {
    const pool = openGraphilePool(db.url, 1);
    try {
      const before = await pool.query<{ pid: number }>('select pg_backend_pid() as pid');
      expect(pool.idleCount).toBe(1);
      expect(await terminateBackends(database)).toBe(1);
      await expect.poll(() => pool.totalCount, { timeout: 10_000 }).toBe(0);
      const after = await pool.query<{ pid: number }>('select pg_backend_pid() as pid');
      expect(after.rows[0]!.pid).not.toBe(before.rows[0]!.pid);
    } finally {
      await pool.end();
    }
  });

  it('keeps a checked-out connection the server ended from crashing the process: its next query is refused', async () => {
    const pool = openGraphilePool(db.url, 1);
    try {
      const client = await pool.connect();
      await client.query('select 1');
      expect(await terminateBackends(database)).toBe(1);
      await expect(client.query('select 1')).rejects.toThrow();
      client.release(true);
      expect((await pool.query<{ one: number }>('select 1 as one')).rows).toEqual([{ one: 1 }]);
    } finally {
      await pool.end();
    }
  });
});
