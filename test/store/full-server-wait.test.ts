import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitingForFreeConnections } from '../../src/store/postgres/full-server-wait.js';
import { createTestDatabase, POSTGRES_ADMIN_URL, type TestDatabase } from '../support/dialects.js';
import { adminQuery } from '../support/postgres-template.js';
import { until } from '../support/until.js';

/**
 * A pool of ours asks for a connection while the server takes no more (here a role's connection limit, the
 * same SQLSTATE 53300 as `max_connections`): it waits until one is free, rather than
 * failing the work that asked (a run whose thread read its dataset failed so in a wide sweep).
 */
describe('a connection asked of a full PostgreSQL', () => {
  let db: TestDatabase;
  let url: string;
  // A role of one connection (superusers are exempt from connection limits), refused with 53300 as
  // `max_connections` refuses.
  const role = `scenarist_one_${randomBytes(4).toString('hex')}`;
  beforeAll(async () => {
    db = await createTestDatabase('postgres');
    await adminQuery(POSTGRES_ADMIN_URL, `create role ${role} login connection limit 1`);
    const limited = new URL(db.url);
    limited.username = role;
    url = limited.toString();
  });
  afterAll(async () => {
    await db?.drop();
    await adminQuery(POSTGRES_ADMIN_URL, `drop role if exists ${role}`);
  });

  it('waits for the connection another pool frees, in both of pg-pool’s forms', async () => {
    const holder = new pg.Pool({ connectionString: url, max: 1 });
    let refused = 0;
    const pool = waitingForFreeConnections(new pg.Pool({ connectionString: url, max: 1 }), () => refused++);
    try {
      const held = await holder.connect();
      const asked = pool.query<{ one: number }>('select 1 as one');
      const connected = pool.connect();
      // Both asks refused at least once while the other pool holds the role's one connection.
      await until('both asks refused', () => refused >= 2);
      held.release();
      await holder.end();
      // Awaited together: the pool holds one connection, and whichever ask gets it first must hand it
      // back before the other can have it (awaiting the query first hung when the connect won).
      const viaPromise = connected.then(async (client) => {
        try {
          return (await client.query<{ one: number }>('select 1 as one')).rows;
        } finally {
          client.release();
        }
      });
      expect(await Promise.all([asked.then((result) => result.rows), viaPromise])).toEqual([[{ one: 1 }], [{ one: 1 }]]);
    } finally {
      await pool.end();
      await holder.end().catch(() => undefined);
    }
  });
});
