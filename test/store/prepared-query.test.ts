import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepared, preparedByShape } from '../../src/store/prepared-query.js';
import { openStore, type Store } from '../../src/store/store.js';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../support/dialects.js';

describe.each(DIALECTS)('prepared queries on %s', (dialect) => {
  let database: TestDatabase;
  let store: Store;
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    store = await openStore(database.url);
    for (const name of ['one', 'two', 'three']) {
      await store.sessions.insert({ id: `id-${name}`, displayName: name, createdAt: '2024-01-01T00:00:00.000Z' });
    }
  });
  afterAll(async () => {
    await store?.close();
    await database?.drop();
  });

  const byName = prepared((db, v: { name: string }) => db.selectFrom('sessions').select(['id', 'display_name']).where('display_name', '=', v.name));

  it('runs one compiled statement with new values on each call', async () => {
    expect((await byName(store.db, { name: 'one' })).rows).toEqual([{ id: 'id-one', display_name: 'one' }]);
    expect((await byName(store.db, { name: 'two' })).rows).toEqual([{ id: 'id-two', display_name: 'two' }]);
    expect((await byName(store.db, { name: 'none' })).rows).toEqual([]);
  });

  it('binds a value used twice in both places', async () => {
    const either = prepared((db, v: { ref: string }) =>
      db
        .selectFrom('sessions')
        .select('display_name')
        .where((eb) => eb.or([eb('id', '=', v.ref), eb('display_name', '=', v.ref)])),
    );
    expect((await either(store.db, { ref: 'id-three' })).rows).toEqual([{ display_name: 'three' }]);
    expect((await either(store.db, { ref: 'three' })).rows).toEqual([{ display_name: 'three' }]);
  });

  it('keeps fixed values of the builder and reports the rows a write changed', async () => {
    const rename = prepared((db, v: { id: string; name: string }) =>
      db.updateTable('sessions').set({ display_name: v.name }).where('id', '=', v.id).where('created_at', '=', '2024-01-01T00:00:00.000Z'),
    );
    expect(Number((await rename(store.db, { id: 'id-two', name: 'deux' })).numAffectedRows)).toBe(1);
    expect(Number((await rename(store.db, { id: 'missing', name: 'x' })).numAffectedRows)).toBe(0);
    expect((await byName(store.db, { name: 'deux' })).rows).toEqual([{ id: 'id-two', display_name: 'deux' }]);
  });

  it('compiles one statement per shape, such as the length of a list', async () => {
    const among = preparedByShape(
      (count: number) => String(count),
      (db, count, v: Readonly<Record<string, string>>) =>
        db
          .selectFrom('sessions')
          .select('id')
          .where('display_name', 'in', Array.from({ length: count }, (_, k) => v[`n${k}`]!))
          .orderBy('id'),
    );
    expect((await among(store.db, 1, { n0: 'one' })).rows).toEqual([{ id: 'id-one' }]);
    expect((await among(store.db, 2, { n0: 'one', n1: 'three' })).rows).toEqual([{ id: 'id-one' }, { id: 'id-three' }]);
    expect((await among(store.db, 1, { n0: 'three' })).rows).toEqual([{ id: 'id-three' }]);
  });

  it('refuses a value that does not become a bound parameter', async () => {
    const inlined = prepared((db, v: { column: string }) => db.selectFrom('sessions').select('id').where('display_name', '=', `${v.column}`));
    await expect(inlined(store.db, { column: 'one' })).rejects.toThrow(/not a bound parameter/);
  });
});
