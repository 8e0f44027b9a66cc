import { describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/dialects.js';
import { queuedSession, useTestStore } from '../support/test-store.js';

const TABLES = (name: string) => JSON.stringify({ items: { columns: [{ name: 'name', type: 'string' }], rows: [[name]] } });

/**
 * A claim answers the version of its dataset the run computes on, so the run's thread reads that
 * version without asking the store which one (a round trip per run on PostgreSQL): the same version
 * the store records for the run, also when the dataset was replaced while the run waited.
 */
describe.each(DIALECTS)('the dataset version a claim answers on %s', (dialect) => {
  const store = useTestStore(dialect);

  it('is the version the run is recorded as computing on', async () => {
    const { datasets, runs } = store();
    const { sessionId, ids } = await queuedSession(store(), 2);
    const first = await runs.claim(ids[0]!, 'token-1');
    expect(first?.datasetVersion).toEqual(await datasets.runVersion(sessionId, 'items', ids[0]!));
    expect(first?.datasetVersion?.versionNo).toBe(1);
    // Replaced while the second run waits: its claim answers the new version, as the store records.
    await datasets.put({ sessionId, key: 'items', kind: 'master', createdAt: new Date().toISOString(), version: 'v2', tablesJson: TABLES('b') });
    await runs.complete({ id: ids[0]!, runToken: 'token-1' }, { resultJson: '{}', kpis: {} }, new Date().toISOString());
    const second = await runs.claim(ids[1]!, 'token-2');
    expect(second?.datasetVersion?.versionNo).toBe(2);
    expect(second?.datasetVersion).toEqual(await datasets.runVersion(sessionId, 'items', ids[1]!));
    expect(second?.datasetVersion?.seq).not.toBe(first?.datasetVersion?.seq);
  });
});
