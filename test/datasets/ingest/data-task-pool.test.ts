import { randomUUID } from 'node:crypto';
import { openSync, closeSync, writeSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXAMPLE_DOMAIN } from '../../../src/domain/load.js';
import { createDataTaskPool, type DataTaskPool, type DataTaskPoolOptions } from '../../../src/datasets/ingest/data-task-pool.js';
import { ScenaristError } from '../../../src/errors.js';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../../support/dialects.js';
import { until } from '../../support/until.js';
import { openStore, type Store } from '../../../src/store/store.js';

/** The smallest heap the `data_thread_heap` setting allows. */
const SMALL_HEAP_MB = 64;

const FORM = (key: string) =>
  JSON.stringify({ key, kind: 'master', created_at: new Date().toISOString(), tables: { items: { columns: [{ name: 'name', type: 'string' }], rows: [['a']] } } });

describe.each(DIALECTS)('the upload and view thread pool, on %s', (dialect) => {
  let database: TestDatabase;
  let store: Store;
  let sessionId: string;
  const pools: DataTaskPool[] = [];

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    store = await openStore(database.url);
    sessionId = randomUUID();
    await store.sessions.insert({ id: sessionId, displayName: 'pool', createdAt: new Date().toISOString() });
  });
  afterAll(async () => {
    await Promise.all(pools.map((pool) => pool.close()));
    await store?.close();
    await database?.drop();
  });

  function pool(options: Partial<DataTaskPoolOptions>): DataTaskPool {
    const made = createDataTaskPool({
      databaseUrl: database.url,
      domain: EXAMPLE_DOMAIN,
      maxFieldBytes: 4 * 1024 * 1024,
      work: 'upload',
      threads: 1,
      expressThreads: 0,
      maxHeapMb: 512,
      idleTimeoutMs: 5_000,
      timeLimitMs: 120_000,
      queueWaitMs: 10_000,
      ...options,
    });
    pools.push(made);
    return made;
  }

  function staged(name: string, text: string): string {
    const path = join(database.dir, name);
    writeFileSync(path, text);
    return path;
  }

  it('starts no thread before its first task, and none is left once its threads were idle for the idle time', async () => {
    const uploads = pool({ idleTimeoutMs: 300 });
    expect(uploads.threads).toBe(0);
    const result = await uploads.run({ kind: 'from-json', sessionId, path: staged('lazy.json', FORM('lazy')) });
    expect(result).toEqual({ key: 'lazy' });
    expect(uploads.threads).toBeGreaterThan(0);
    await until('the idle thread to exit', () => uploads.threads === 0, { within: 30_000 });
    // A task after that starts a thread again.
    await expect(uploads.run({ kind: 'from-json', sessionId, path: staged('again.json', FORM('again')) })).resolves.toEqual({ key: 'again' });
  });

  it('refuses a task that needs more heap than its threads may use, naming the limit, and keeps serving the next one', async () => {
    const uploads = pool({ maxHeapMb: SMALL_HEAP_MB });
    // 256 MiB of JSON (whitespace around a small form): reading it as one string needs four times the heap allowed.
    const path = join(database.dir, 'huge.json');
    const fd = openSync(path, 'w');
    const blank = Buffer.alloc(1024 * 1024, 0x20);
    for (let i = 0; i < 256; i++) writeSync(fd, blank);
    writeSync(fd, FORM('huge'));
    closeSync(fd);
    const refusal = await uploads.run({ kind: 'from-json', sessionId, path }).catch((err: unknown) => err);
    expect(refusal).toBeInstanceOf(ScenaristError);
    expect((refusal as ScenaristError).code).toBe('TOO_LARGE');
    expect((refusal as ScenaristError).message).toContain(`${SMALL_HEAP_MB} MB`);
    expect(await store.datasets.get(sessionId, 'huge')).toBeUndefined();
    // Only that thread stopped: the pool starts another for the next task.
    await expect(uploads.run({ kind: 'from-json', sessionId, path: staged('after.json', FORM('after')) })).resolves.toEqual({ key: 'after' });
  });
});
