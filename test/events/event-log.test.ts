import { randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EventLog } from '../../src/store/event-log.js';
import type { EventFacts, LoggedEvent } from '../../src/model/event-types.js';
import type { Database, StoredStatus } from '../../src/store/database.js';
import { openStore, type Store } from '../../src/store/store.js';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../support/dialects.js';

const renamed = (sessionId: string, n: number): EventFacts => ({ type: 'session.renamed', session_id: sessionId, display_name: `name ${n}` });
const now = () => new Date().toISOString();
const parsed = (events: readonly LoggedEvent[]) => events.map((e) => JSON.parse(e.json) as Record<string, unknown>);

async function addSession(db: Kysely<Database>, name: string): Promise<string> {
  const id = randomUUID();
  await db.insertInto('sessions').values({ id, display_name: name, created_at: now() }).execute();
  return id;
}

async function addScenario(db: Kysely<Database>, sessionId: string, tag: string, status: StoredStatus = 'CREATED'): Promise<string> {
  const id = randomUUID();
  await db
    .insertInto('scenarios')
    .values({ id, session_id: sessionId, tag, dataset_key: 'd', algo_name: 'Instant', algo_params: '{}', data_params: '{}', status, progress: 0, attempts: 0, created_at: now() })
    .execute();
  return id;
}

const setStatus = (db: Kysely<Database>, id: string, set: Partial<{ status: StoredStatus; error: string; error_code: string; report: string }>) =>
  db.updateTable('scenarios').set(set).where('id', '=', id).execute();

describe.each(DIALECTS)('the event log on %s', (dialect) => {
  let database: TestDatabase;
  let stores: Store[];
  let log: EventLog;
  /** Everything logged for a session (numbered first, as an API node does on PostgreSQL). */
  const eventsOf = async (sessionId: string) => {
    await log.number();
    return parsed(await log.ofSession(sessionId, 0, Number.MAX_SAFE_INTEGER, 1_000));
  };

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    // On PostgreSQL two stores stand for two processes (two connection pools) writing one log at once.
    // A SQLite store has one writer process by design, so there both writers share one store.
    const first = await openStore(database.url);
    stores = dialect === 'postgres' ? [first, await openStore(database.url)] : [first];
    log = new EventLog(first.db, dialect);
  });
  afterAll(async () => {
    for (const store of stores ?? []) await store.close();
    await database?.drop();
  });

  it('gives ids in commit order: concurrent writers never let a reader see a gap', async () => {
    const logs = [stores[0]!, stores[stores.length - 1]!].map((s) => new EventLog(s.db, s.dialect));
    const start = await log.lastId();
    let cursor = start;
    let writing = true;
    const gaps: string[] = [];
    // A reader follows the log by id the way the SSE feed does, while the writers race.
    const following = (async () => {
      while (writing || (await log.number()) > 0 || cursor < (await log.lastId())) {
        await log.number();
        const page = await log.between(cursor, Number.MAX_SAFE_INTEGER, 1_000);
        for (const event of page) {
          if (event.id !== cursor + 1) gaps.push(`${cursor} -> ${event.id}`);
          cursor = event.id;
        }
      }
    })();
    await Promise.all(Array.from({ length: 60 }, (_, i) => logs[i % 2]!.append([renamed(`s${i % 3}`, i), renamed(`s${i % 3}`, i + 1000)]))).finally(
      () => (writing = false),
    );
    await following;

    expect(gaps).toEqual([]);
    expect(cursor).toBe(start + 120);
    expect(await log.lastId()).toBe(start + 120);
    // Each batch's events keep the order they were given in.
    const all = parsed(await log.between(start, cursor, 1_000)) as { id: number; display_name: string }[];
    for (let i = 0; i < 60; i++) {
      const first = all.find((e) => e.display_name === `name ${i}`)!;
      expect(all.find((e) => e.display_name === `name ${i + 1000}`)!.id).toBeGreaterThan(first.id);
    }
  });

  it('reads one session after an id, up to a bound, as the JSON delivered', async () => {
    await log.number();
    const before = await log.lastId();
    expect(await log.append([renamed('alpha', 1), renamed('beta', 2), renamed('alpha', 3)])).toBe(3);
    await log.number();
    const read = await log.ofSession('alpha', before, before + 3, 10);
    expect(read.map((e) => e.id)).toEqual([before + 1, before + 3]);
    expect(read[1]!.json).toMatch(/^\{"id":\d+,"type":"session\.renamed","session_id":"alpha","at":"[^"]+Z","display_name":"name 3"\}$/);
    expect(JSON.parse(read[1]!.json)).toEqual({ id: before + 3, type: 'session.renamed', session_id: 'alpha', at: expect.any(String), display_name: 'name 3' });
    expect(await log.ofSession('alpha', before + 1, before + 1, 10)).toEqual([]);
  });

  it('logs every life-cycle change of a scenario in the statement that makes it, with the row’s fields', async () => {
    const db = stores[0]!.db;
    const sid = await addSession(db, `life ${dialect}`);
    const id = await addScenario(db, sid, 'first');
    await setStatus(db, id, { status: 'QUEUED' });
    await setStatus(db, id, { status: 'PROCESSING' });
    await setStatus(db, id, { status: 'PROCESSING' }); // not a change: no event
    const report = { objective: 2.5, best_so_far: null, message: 'done', at: now() };
    await setStatus(db, id, { status: 'COMPLETE', report: JSON.stringify(report) });
    await setStatus(db, id, { status: 'CREATED' });
    await setStatus(db, id, { status: 'FAILED', error: 'it broke', error_code: 'ALGORITHM_ERROR' });
    await db.deleteFrom('scenarios').where('id', '=', id).execute();

    const scenario = { scenario_id: id, tag: 'first', session_id: sid };
    expect(await eventsOf(sid)).toEqual([
      { ...scenario, id: expect.any(Number), at: expect.any(String), type: 'scenario.created', status: 'CREATED' },
      { ...scenario, id: expect.any(Number), at: expect.any(String), type: 'scenario.queued', status: 'QUEUED' },
      { ...scenario, id: expect.any(Number), at: expect.any(String), type: 'scenario.started', status: 'PROCESSING' },
      { ...scenario, id: expect.any(Number), at: expect.any(String), type: 'scenario.completed', status: 'COMPLETE', progress: 1, report },
      { ...scenario, id: expect.any(Number), at: expect.any(String), type: 'scenario.reset', status: 'CREATED', progress: 0 },
      { ...scenario, id: expect.any(Number), at: expect.any(String), type: 'scenario.failed', status: 'FAILED', message: 'it broke', code: 'ALGORITHM_ERROR', report },
      { ...scenario, id: expect.any(Number), at: expect.any(String), type: 'scenario.deleted' },
    ]);
  });

  it('logs nothing for a change that is rolled back', async () => {
    const db = stores[0]!.db;
    const sid = await addSession(db, `rolled back ${dialect}`);
    const id = await addScenario(db, sid, 'kept');
    await expect(
      db.transaction().execute(async (trx) => {
        await setStatus(trx, id, { status: 'QUEUED' });
        throw new Error('abandoned');
      }),
    ).rejects.toThrow('abandoned');
    expect((await eventsOf(sid)).map((e) => e.type)).toEqual(['scenario.created']);
  });

  it('logs stored, replaced and deleted datasets, renames, and only the session’s end when a session goes', async () => {
    const db = stores[0]!.db;
    const sid = await addSession(db, `data ${dialect}`);
    const dataset = (version: string) => ({ session_id: sid, key: 'plan', kind: 'master' as const, created_at: now(), version });
    await db.insertInto('datasets').values(dataset('v1')).execute();
    await db
      .insertInto('datasets')
      .values(dataset('v2'))
      .onConflict((oc) => oc.columns(['session_id', 'key']).doUpdateSet({ version: 'v2' }))
      .execute();
    await db.deleteFrom('datasets').where('session_id', '=', sid).execute();
    await db.insertInto('datasets').values(dataset('v3')).execute();
    await db.updateTable('sessions').set({ display_name: `data ${dialect} renamed` }).where('id', '=', sid).execute();
    await addScenario(db, sid, 'goes with the session');
    await db.deleteFrom('sessions').where('id', '=', sid).execute();

    expect((await eventsOf(sid)).map(({ type, dataset_key, display_name }) => ({ type, dataset_key, display_name }))).toEqual([
      { type: 'dataset.created', dataset_key: 'plan', display_name: undefined },
      { type: 'dataset.created', dataset_key: 'plan', display_name: undefined },
      { type: 'dataset.deleted', dataset_key: 'plan', display_name: undefined },
      { type: 'dataset.created', dataset_key: 'plan', display_name: undefined },
      { type: 'session.renamed', dataset_key: undefined, display_name: `data ${dialect} renamed` },
      { type: 'scenario.created', dataset_key: undefined, display_name: undefined },
      { type: 'session.deleted', dataset_key: undefined, display_name: undefined },
    ]);
  });

  it('keeps progress only while its scenario is PROCESSING, with the scenario’s tag', async () => {
    const db = stores[0]!.db;
    const sid = await addSession(db, `progress ${dialect}`);
    const running = await addScenario(db, sid, 'running', 'PROCESSING');
    const done = await addScenario(db, sid, 'done', 'COMPLETE');
    const progress = (scenario_id: string, value: number): EventFacts => ({ type: 'scenario.progress', session_id: sid, scenario_id, status: 'PROCESSING', progress: value });
    expect(await log.append([progress(running, 0.5), progress(done, 0.9), progress('gone', 0.1)])).toBe(1);
    const logged = (await eventsOf(sid)).filter((e) => e.type === 'scenario.progress');
    expect(logged).toEqual([{ id: expect.any(Number), at: expect.any(String), type: 'scenario.progress', session_id: sid, scenario_id: running, tag: 'running', status: 'PROCESSING', progress: 0.5 }]);
  });

  it('logs a batch in its order, other events between progress reports, a tag with quotes and line breaks as written', async () => {
    const db = stores[0]!.db;
    const sid = await addSession(db, `batch ${dialect}`);
    const tag = 'say "hi"\\ \n\tnaïve \u2028 ✓';
    const running = await addScenario(db, sid, tag, 'PROCESSING');
    const done = await addScenario(db, sid, 'done', 'COMPLETE');
    const progress = (scenario_id: string, value: number): EventFacts => ({ type: 'scenario.progress', session_id: sid, scenario_id, status: 'PROCESSING', progress: value });
    const batch: EventFacts[] = [renamed(sid, 1), progress(running, 0.25), progress(done, 0.5), renamed(sid, 2), { ...progress(running, 0.75), tag: 'given' }, renamed(sid, 3)];
    expect(await log.append(batch)).toBe(5);
    const logged = (await eventsOf(sid)).filter((e) => e.type !== 'scenario.created');
    expect(logged.map((e) => [e.type, e.display_name ?? e.progress, e.tag])).toEqual([
      ['session.renamed', 'name 1', undefined],
      ['scenario.progress', 0.25, tag],
      ['session.renamed', 'name 2', undefined],
      ['scenario.progress', 0.75, 'given'],
      ['session.renamed', 'name 3', undefined],
    ]);
    const ids = logged.map((e) => e.id as number);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
  });

  it('prunes events older than the retention', async () => {
    await log.append([renamed('old', 1)]);
    await log.number();
    const kept = await log.lastId();
    await log.prune(new Date(Date.now() - 60_000).toISOString());
    expect(await log.ofSession('old', 0, kept, 10)).toHaveLength(1);
    expect(await log.prune(new Date(Date.now() + 60_000).toISOString())).toBeGreaterThan(0);
    expect(await log.ofSession('old', 0, kept, 10)).toEqual([]);
    // Ids keep increasing after a prune: a resume point never points at a reused id.
    await log.append([renamed('old', 2)]);
    await log.number();
    expect((await log.ofSession('old', 0, Number.MAX_SAFE_INTEGER, 10)).map((e) => e.id)).toEqual([kept + 1]);
  });
});

describe.runIf(DIALECTS.includes('postgres'))('the event log on PostgreSQL, with transactions committing out of order', () => {
  let database: TestDatabase;
  let writers: Store[];
  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    writers = [await openStore(database.url), await openStore(database.url)];
  });
  afterAll(async () => {
    for (const store of writers ?? []) await store.close();
    await database?.drop();
  });

  it('numbers events after they commit: a reader past a later commit still gets the earlier-written event, once', async () => {
    const [first, second] = writers as [Store, Store];
    const log = new EventLog(first.db, 'postgres');
    const sid = await addSession(first.db, 'out of order');
    const early = await addScenario(first.db, sid, 'early');
    const late = await addScenario(first.db, sid, 'late');
    // A first run queued and committed, as in any session that ran before: queuing a run adds its
    // job (migration 0020), and the job's first insert of graphile-worker's task and session-queue
    // rows would make a concurrent queuing wait for its commit.
    await addScenario(first.db, sid, 'ran before', 'QUEUED');
    await log.number();
    const start = await log.lastId();

    // The first transaction changes state (its event written) and stays open...
    let commitFirst!: () => void;
    const held = new Promise<void>((resolve) => (commitFirst = resolve));
    let written!: () => void;
    const firstWrote = new Promise<void>((resolve) => (written = resolve));
    const firstTransaction = first.db.transaction().execute(async (trx) => {
      await setStatus(trx, early, { status: 'QUEUED' });
      written();
      await held;
    });
    await firstWrote;
    // ...while a second one, begun later, commits, and the committed events are numbered.
    await setStatus(second.db, late, { status: 'QUEUED' });
    expect(await log.number()).toBe(1);
    const afterSecond = await log.between(start, Number.MAX_SAFE_INTEGER, 10);
    expect(afterSecond.map((e) => JSON.parse(e.json).scenario_id)).toEqual([late]);
    const resumeFrom = afterSecond[0]!.id;

    commitFirst();
    await firstTransaction;
    expect(await log.number()).toBe(1);
    // A reader resuming after the second commit's id still receives the first, under a higher id.
    const resumed = await log.ofSession(sid, resumeFrom, Number.MAX_SAFE_INTEGER, 10);
    expect(resumed.map((e) => [e.id, JSON.parse(e.json).scenario_id])).toEqual([[resumeFrom + 1, early]]);
    expect((await log.between(start, Number.MAX_SAFE_INTEGER, 10)).map((e) => e.id)).toEqual([start + 1, start + 2]);
  });
});
