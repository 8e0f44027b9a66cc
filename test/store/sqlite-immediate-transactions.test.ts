import { join } from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../src/store/store.js';
import { createTestDatabase, type TestDatabase } from '../support/dialects.js';

// Several connections write a SQLite store (the run threads record their runs' ends, the data threads
// store uploads): a transaction that reads before it writes must still commit when another connection
// writes meanwhile.
describe('a SQLite transaction beside another writing connection', () => {
  let database: TestDatabase;
  let store: Store;
  let other: BetterSqlite3.Database;
  beforeAll(async () => {
    database = await createTestDatabase('sqlite');
    store = await openStore(database.url);
    await sql`create table probe (x integer)`.execute(store.db);
    // No busy timeout: a write that would have to wait fails at once, so the test shows who holds the lock.
    other = new BetterSqlite3(join(database.dir, 'test.db'), { timeout: 0 });
  });
  afterAll(async () => {
    other?.close();
    await store?.close();
    await database?.drop();
  });

  it('holds the write lock from its start, so the other connection waits its turn and the transaction commits', async () => {
    await store.db.transaction().execute(async (trx) => {
      await sql`select count(*) from probe`.execute(trx);
      // Begun the default way, this write would commit and the transaction's own write below fail
      // with SQLITE_BUSY_SNAPSHOT; begun IMMEDIATE, it is the other connection that must wait.
      expect(() => other.prepare('insert into probe (x) values (2)').run()).toThrow(/database is locked/);
      await sql`insert into probe (x) values (1)`.execute(trx);
    });
    other.prepare('insert into probe (x) values (2)').run();
    const rows = await sql<{ x: number }>`select x from probe order by x`.execute(store.db);
    expect(rows.rows.map((r) => r.x)).toEqual([1, 2]);
  });
});
