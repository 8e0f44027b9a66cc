import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll } from 'vitest';
import type { StoreDialect } from '../../src/store/dialect.js';
import { changeFor } from '../../src/model/run-state/changes.js';
import { openStore, type Store } from '../../src/store/store.js';
import { createTestDatabase, type TestDatabase } from './dialects.js';

/** A store on a fresh database of `dialect` for the enclosing `describe`, dropped after it; call the result inside tests. */
export function useTestStore(dialect: StoreDialect): (() => Store) & { readonly databaseUrl: () => string } {
  let database: TestDatabase | undefined;
  let store: Store | undefined;
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    store = await openStore(database.url);
  });
  afterAll(async () => {
    await store?.close();
    await database?.drop();
  });
  const opened = () => {
    if (!store || !database) throw new Error('the test store is opened in beforeAll: use it inside a test');
    return { store, database };
  };
  return Object.assign(() => opened().store, { databaseUrl: () => opened().database.url });
}

const ITEMS = JSON.stringify({ items: { columns: [{ name: 'name', type: 'string' }], rows: [['a']] } });

/** A new session with a one-table dataset `items` and `count` scenarios (tags `run 0`, `run 1`, ...) queued in that order. */
export async function queuedSession(store: Store, count: number): Promise<{ sessionId: string; ids: string[] }> {
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
  return { sessionId, ids };
}
