import { describe, expect, it } from 'vitest';
import { dialectAdapterOf } from '../../src/store/dialect.js';
import { DIALECTS } from '../support/dialects.js';
import { useTestStore } from '../support/test-store.js';

/** Queries handed only a Kysely handle find the same adapter the store chose when it opened. */
describe.each(DIALECTS)('the dialect adapter on %s', (dialect) => {
  const store = useTestStore(dialect);

  it('is the one the store opened with, from the store handle and from a transaction on it', async () => {
    expect(store().adapter.name).toBe(dialect);
    expect(dialectAdapterOf(store().db)).toBe(store().adapter);
    await store().db.transaction().execute(async (trx) => {
      expect(dialectAdapterOf(trx)).toBe(store().adapter);
    });
  });

  it('reads the database clock in the stored time format', async () => {
    const rows = await store().db.selectNoFrom(store().adapter.databaseTime(60_000).as('at')).execute();
    expect(rows[0]!.at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  });
});
