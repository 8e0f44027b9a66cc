import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { changeFor } from '../../src/scenarios/changes.js';
import { openStore, type Store } from '../../src/store/store.js';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../support/dialects.js';

const ITEMS = JSON.stringify({ items: { columns: [{ name: 'name', type: 'string' }], rows: [['a']] } });

/**
 * A claim by id (a distributed job names its scenario) takes only the first queued run of its session:
 * a job put back while its session was busy must not be overtaken by the job of the session's next run.
 */
describe.each(DIALECTS)('claiming runs in queue order on %s', (dialect) => {
  let database: TestDatabase;
  let store: Store;
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    store = await openStore(database.url);
  });
  afterAll(async () => {
    await store?.close();
    await database?.drop();
  });

  /** A session with `count` scenarios queued in order; their ids. */
  const queuedSession = async (count: number) => {
    const sessionId = randomUUID();
    const now = new Date().toISOString();
    await store.sessions.insert({ id: sessionId, displayName: sessionId, createdAt: now });
    await store.datasets.put({ sessionId, key: 'items', kind: 'master', createdAt: now, version: randomUUID(), tablesJson: ITEMS });
    const ids: string[] = [];
    for (let i = 0; i < count; i++) {
      const id = randomUUID();
      await store.scenarios.insert({ id, sessionId, tag: `run ${i}`, datasetKey: 'items', algoName: 'Sum', algoParamsJson: '{}', dataParamsJson: '{}', createdAt: now });
      await store.runs.queue({ sessionId, id }, changeFor('run'), new Date().toISOString());
      ids.push(id);
    }
    return ids;
  };

  it('refuses a later run of a session while an earlier one is queued, and takes the runs in order', async () => {
    const [first, second, third] = await queuedSession(3);
    expect(await store.runs.claim(second!, randomUUID())).toBeUndefined();
    expect(await store.runs.claim(third!, randomUUID())).toBeUndefined();
    const firstToken = randomUUID();
    expect((await store.runs.claim(first!, firstToken))?.id).toBe(first);
    expect(await store.runs.complete({ id: first!, runToken: firstToken }, { resultJson: '{}', kpis: {} }, new Date().toISOString())).toBe(true);
    expect(await store.runs.claim(third!, randomUUID())).toBeUndefined();
    expect((await store.runs.claim(second!, randomUUID()))?.id).toBe(second);
  });

  it('lets sessions be claimed independently of each other', async () => {
    const [a] = await queuedSession(2);
    const [b] = await queuedSession(2);
    expect((await store.runs.claim(b!, randomUUID()))?.id).toBe(b);
    expect((await store.runs.claim(a!, randomUUID()))?.id).toBe(a);
  });
});
