import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventLog } from '../../src/events/event-log.js';
import type { EventFacts } from '../../src/events/event-types.js';
import { openStore, type Store } from '../../src/store/store.js';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../support/dialects.js';

const renamed = (sessionId: string, n: number): EventFacts => ({ type: 'session.renamed', session_id: sessionId, display_name: `name ${n}` });

describe.each(DIALECTS)('the event log on %s', (dialect) => {
  let database: TestDatabase;
  let stores: Store[];
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    // On PostgreSQL two stores stand for two processes (two connection pools) writing one log at once.
    // A SQLite store has one writer process by design (a second connection in the same process would
    // block its event loop in SQLite's busy wait), so there both writers share one store.
    const first = await openStore(database.url);
    stores = dialect === 'postgres' ? [first, await openStore(database.url)] : [first];
  });
  afterAll(async () => {
    for (const store of stores ?? []) await store.close();
    await database?.drop();
  });

  it('gives ids in commit order: concurrent writers never let a reader see a gap', async () => {
    const logs = [stores[0]!, stores[stores.length - 1]!].map((s) => new EventLog(s.db, s.dialect));
    const reader = logs[0]!;
    const start = await reader.lastId();
    let cursor = start;
    let writing = true;
    const gaps: string[] = [];
    // A reader follows the log by id the way the SSE feed does, while the writers race.
    const following = (async () => {
      while (writing || cursor < (await reader.lastId())) {
        const page = await reader.between(cursor, Number.MAX_SAFE_INTEGER, 1_000);
        for (const event of page) {
          if (event.id !== cursor + 1) gaps.push(`${cursor} -> ${event.id}`);
          cursor = event.id;
        }
      }
    })();
    const batches = await Promise.all(
      Array.from({ length: 60 }, (_, i) => logs[i % 2]!.append([renamed(`s${i % 3}`, i), renamed(`s${i % 3}`, i + 1000)])),
    ).finally(() => (writing = false));
    await following;

    expect(gaps).toEqual([]);
    const ids = batches.flatMap((b) => b.events.map((e) => e.id)).sort((x, y) => x - y);
    expect(ids).toEqual(Array.from({ length: 120 }, (_, i) => start + 1 + i));
    // Each batch took consecutive ids, in the order its events were given.
    for (const batch of batches) expect(batch.events[1]!.id).toBe(batch.events[0]!.id + 1);
    expect(cursor).toBe(start + 120);
    expect(await reader.lastId()).toBe(start + 120);
  });

  it('reads one session after an id, up to a bound, as the JSON delivered', async () => {
    const log = new EventLog(stores[0]!.db, dialect);
    const appended = await log.append([renamed('alpha', 1), renamed('beta', 2), renamed('alpha', 3)]);
    const [a1, , a3] = appended.events;
    const read = await log.ofSession('alpha', a1!.id - 1, appended.lastId, 10);
    expect(read.map((e) => e.id)).toEqual([a1!.id, a3!.id]);
    expect(JSON.parse(read[1]!.json)).toEqual({ id: a3!.id, type: 'session.renamed', session_id: 'alpha', at: expect.any(String), display_name: 'name 3' });
    expect(await log.ofSession('alpha', a1!.id, a1!.id, 10)).toEqual([]);
  });

  it('drops progress of a scenario that no longer runs, and fills in scenario tags', async () => {
    const log = new EventLog(stores[0]!.db, dialect);
    const result = await log.append([
      { type: 'scenario.progress', session_id: 'x', scenario_id: 'gone', progress: 0.5 },
      { type: 'scenario.deleted', session_id: 'x', scenario_id: 'gone' },
    ]);
    expect(result.events.map((e) => e.type)).toEqual(['scenario.deleted']);
    expect((await log.append([{ type: 'scenario.progress', session_id: 'x', scenario_id: 'gone', progress: 0.6 }])).events).toEqual([]);
  });

  it('logs a batch whose tags the emitter knew under consecutive ids after the last, as given', async () => {
    const log = new EventLog(stores[0]!.db, dialect);
    const before = await log.lastId();
    const result = await log.append([
      { type: 'scenario.queued', session_id: 'x', scenario_id: 'known', status: 'QUEUED', tag: 'first run' },
      { type: 'scenario.started', session_id: 'x', scenario_id: 'known', status: 'PROCESSING', tag: 'first run' },
    ]);
    expect(result.events.map((e) => e.id)).toEqual([before + 1, before + 2]);
    expect(result.lastId).toBe(before + 2);
    expect(await log.lastId()).toBe(before + 2);
    expect(result.events.map((e) => JSON.parse(e.json) as { tag: string; status: string })).toMatchObject([
      { tag: 'first run', status: 'QUEUED' },
      { tag: 'first run', status: 'PROCESSING' },
    ]);
  });

  it('prunes events older than the retention', async () => {
    const log = new EventLog(stores[0]!.db, dialect);
    const kept = await log.append([renamed('old', 1)]);
    await log.prune(new Date(Date.now() - 60_000).toISOString());
    expect(await log.ofSession('old', 0, kept.lastId, 10)).toHaveLength(1);
    expect(await log.prune(new Date(Date.now() + 60_000).toISOString())).toBeGreaterThan(0);
    expect(await log.ofSession('old', 0, kept.lastId, 10)).toEqual([]);
    // Ids keep increasing after a prune: a resume point never points at a reused id.
    const next = await log.append([renamed('old', 2)]);
    expect(next.events[0]!.id).toBe(kept.lastId + 1);
  });
});
