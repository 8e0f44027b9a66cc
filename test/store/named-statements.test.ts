import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { StatementNames } from '../../src/store/postgres/named-statements.js';
import { openStore, type Store } from '../../src/store/store.js';
import { createTestDatabase, type TestDatabase } from '../support/dialects.js';

describe('names for repeated statements', () => {
  it('names a text from its third use on, always with the same name, and distinct texts distinctly', () => {
    const names = new StatementNames();
    expect(names.nameOf('select $1')).toBeUndefined();
    expect(names.nameOf('select $1')).toBeUndefined();
    const name = names.nameOf('select $1');
    expect(name).toBeDefined();
    expect(names.nameOf('select $1')).toBe(name);
    for (let i = 0; i < 3; i++) names.nameOf('select $1, $2');
    expect(names.nameOf('select $1, $2')).not.toBe(name);
  });

  it('gives at most 500 names, then runs new texts unnamed', () => {
    const names = new StatementNames();
    for (let n = 0; n < 500; n++) for (let i = 0; i < 3; i++) names.nameOf(`select ${n}`);
    for (let i = 0; i < 5; i++) expect(names.nameOf('select after')).toBeUndefined();
    expect(names.nameOf('select 0')).toBeDefined();
  });
});

// PostgreSQL only: SQLite statements are prepared in process (see sqlite-connection.ts).
describe('repeated statements on PostgreSQL', () => {
  let database: TestDatabase;
  let store: Store;
  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    // One connection, so the prepared statements listed are the ones this store's queries made.
    store = await openStore(database.url, { maxConnections: 1 });
  });
  afterAll(async () => {
    await store?.close();
    await database?.drop();
  });

  it('run as named prepared statements once repeated, with the same results', async () => {
    const answers: number[] = [];
    for (let i = 0; i < 5; i++) answers.push((await sql<{ n: number }>`select ${i}::int + 1 as n`.execute(store.db)).rows[0]!.n);
    expect(answers).toEqual([1, 2, 3, 4, 5]);
    for (let i = 0; i < 5; i++) await sql`select 42 as plain`.execute(store.db);
    const prepared = await sql<{ name: string; statement: string }>`select name, statement from pg_prepared_statements`.execute(store.db);
    const statements = prepared.rows.map((r) => r.statement);
    expect(statements).toContain('select $1::int + 1 as n');
    // Without parameters a statement stays unnamed (transaction control and DDL among them).
    expect(statements.some((s) => s.includes('42 as plain'))).toBe(false);
  });
});
