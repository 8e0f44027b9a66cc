import { randomUUID } from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { openStore, type Store } from '../../src/store/store.js';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../support/dialects.js';

/**
 * Leases are compared across hosts, so they are timed by the database clock: a host whose clock is
 * years off still leases for the right time, and never takes over a live run (nor keeps a dead one).
 */
describe.each(DIALECTS)('run leases on %s', (dialect) => {
  let database: TestDatabase;
  let store: Store;
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    store = await openStore(database.url);
  });
  afterEach(() => vi.useRealTimers());
  afterAll(async () => {
    await store?.close();
    await database?.drop();
  });

  /** The database's own clock, read before the host clock is skewed. */
  const databaseNow = async () => {
    const query = dialect === 'postgres' ? sql<{ t: string }>`select cast(extract(epoch from now()) * 1000 as text) as t` : sql<{ t: string }>`select cast((julianday('now') - 2440587.5) * 86400000.0 as text) as t`;
    return Number((await query.execute(store.db)).rows[0]!.t);
  };

  /** A QUEUED scenario in a session of its own (a session runs one scenario at a time). */
  const queuedScenario = async () => {
    const sessionId = randomUUID();
    const now = new Date().toISOString();
    await store.sessions.insert({ id: sessionId, displayName: sessionId, createdAt: now });
    await store.datasets.put({ sessionId, key: 'items', kind: 'master', createdAt: now, version: randomUUID(), tablesJson: '{}' });
    const id = randomUUID();
    await store.scenarios.insert({ id, sessionId, tag: id, datasetKey: 'items', algoName: 'Sum', algoParamsJson: '{}', dataParamsJson: '{}', createdAt: new Date().toISOString() });
    await store.runs.queue({ sessionId, id }, { from: ['CREATED'], to: 'QUEUED' }, new Date().toISOString());
    return id;
  };
  const leaseOf = async (id: string) =>
    (await store.db.selectFrom('scenarios').select(['lease_expires_at', 'started_at']).where('id', '=', id).executeTakeFirstOrThrow());

  it('claims and renews a lease that ends leaseMs after the database now, whatever the host clock says', async () => {
    const id = await queuedScenario();
    const before = await databaseNow();
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2001-01-01T00:00:00Z'));
    const claimed = await store.runs.claim(id, 'token', 5_000);
    expect(claimed).toBeDefined();
    const leased = await leaseOf(id);
    expect(Date.parse(leased.lease_expires_at!)).toBeGreaterThanOrEqual(before + 5_000 - 1_000);
    expect(Date.parse(leased.lease_expires_at!)).toBeLessThan(before + 5_000 + 60_000);
    expect(Date.parse(leased.started_at!)).toBeGreaterThanOrEqual(before - 1_000);

    expect(await store.runs.writeProgressBatch([{ key: { id, runToken: 'token' }, progress: 0.5 }], 60_000)).toEqual(new Set([id]));
    const renewed = await leaseOf(id);
    expect(Date.parse(renewed.lease_expires_at!)).toBeGreaterThanOrEqual(before + 60_000 - 1_000);
    await store.runs.fail({ id, runToken: 'token' }, { message: 'test over', code: 'ALGORITHM_ERROR' }, new Date().toISOString());
  });

  it('finds a lease expired by the database clock only: a host clock far ahead takes over nothing live', async () => {
    const live = await queuedScenario();
    const dead = await queuedScenario();
    await store.runs.claim(live, 'live', 60_000);
    await store.runs.claim(dead, 'dead', 1);
    await new Promise((resolve) => setTimeout(resolve, 20));
    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(new Date('2100-01-01T00:00:00Z'));
    const expired = (await store.runs.expiredRuns(5_000)).map((r) => r.scenarioId);
    expect(expired).toContain(dead);
    expect(expired).not.toContain(live);
  });

  it('clears the lease of a run taken back, so its next claim starts without an expired lease', async () => {
    const id = await queuedScenario();
    await store.runs.claim(id, 'first', 1);
    await new Promise((resolve) => setTimeout(resolve, 20));
    const [expired] = (await store.runs.expiredRuns(5_000)).filter((r) => r.scenarioId === id);
    expect(await store.runs.reclaim(expired!, new Date().toISOString())).toBe('requeued');
    expect(await leaseOf(id)).toEqual({ lease_expires_at: null, started_at: null });
    // An unleased claim (the local executor) leaves no lease behind either.
    await store.runs.claim(id, 'second');
    expect((await leaseOf(id)).lease_expires_at).toBeNull();
  });
});
