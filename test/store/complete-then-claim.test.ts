import { randomUUID } from 'node:crypto';
import { beforeEach, describe, expect, it } from 'vitest';
import { changeFor } from '../../src/model/run-state/changes.js';
import { EventLog } from '../../src/store/event-log.js';
import { DIALECTS } from '../support/dialects.js';
import { queuedSession, useTestStore } from '../support/test-store.js';

const now = () => new Date().toISOString();
const done = { resultJson: '{"total":4}', kpis: { total: 4 } };

/**
 * Complete-and-claim-next: a run's end and its session's next claim are one transaction, so a
 * session's queue pays no wake-up and no commit of its own between runs.
 */
describe.each(DIALECTS)('ending a run and claiming its session next run at once on %s', (dialect) => {
  const store = useTestStore(dialect);

  // Each test starts from an empty queue: what an earlier one left queued would head it.
  beforeEach(async () => {
    await store().db.updateTable('scenarios').set({ status: 'CREATED' }).where('status', 'in', ['QUEUED', 'PROCESSING']).execute();
  });

  const statuses = async (ids: readonly string[]) => {
    const rows = await store().db.selectFrom('scenarios').select(['id', 'status']).where('id', 'in', [...ids]).execute();
    return ids.map((id) => rows.find((row) => row.id === id)?.status);
  };

  it('completes a run and claims the next run of its session under the new token, with its KPI rows', async () => {
    const { sessionId, ids } = await queuedSession(store(), 3);
    const token = randomUUID();
    expect((await store().runs.claim(ids[0]!, token))?.id).toBe(ids[0]);
    const nextToken = randomUUID();
    const ended = await store().runs.completeThenClaimNext({ id: ids[0]!, runToken: token }, done, now(), { sessionId, runToken: nextToken });
    expect(ended.written).toBe(true);
    expect(ended.next?.id).toBe(ids[1]);
    expect(await statuses(ids)).toEqual(['COMPLETE', 'PROCESSING', 'QUEUED']);
    const kpis = await store().db.selectFrom('scenario_kpis').select(['name', 'value']).where('session_id', '=', sessionId).execute();
    expect(kpis).toEqual([{ name: 'total', value: 4 }]);
    // The claim is the next run's own: its token writes, the previous one's does not.
    expect(await store().runs.writeProgressBatch([{ key: { id: ids[1]!, runToken: nextToken }, progress: 0.5 }])).toEqual(new Set([ids[1]]));
    expect(await store().runs.writeProgressBatch([{ key: { id: ids[1]!, runToken: token }, progress: 0.6 }])).toEqual(new Set());
  });

  it('fails a run and claims the next run of its session', async () => {
    const { sessionId, ids } = await queuedSession(store(), 2);
    const token = randomUUID();
    await store().runs.claim(ids[0]!, token);
    const ended = await store().runs.failThenClaimNext({ id: ids[0]!, runToken: token }, { message: 'boom', code: 'ALGORITHM_ERROR' }, now(), { sessionId, runToken: randomUUID() });
    expect(ended).toMatchObject({ written: true, next: { id: ids[1] } });
    expect(await statuses(ids)).toEqual(['FAILED', 'PROCESSING']);
  });

  it('claims nothing when the next run of the session is not the head of the whole queue (FIFO across sessions)', async () => {
    const first = await queuedSession(store(), 1);
    const token = randomUUID();
    await store().runs.claim(first.ids[0]!, token);
    // Queued before the session's next run: that other session's run heads the queue.
    const other = await queuedSession(store(), 1);
    const later = randomUUID();
    await store().scenarios.insert({ id: later, sessionId: first.sessionId, tag: 'later', datasetKey: 'items', algoName: 'Sum', algoParamsJson: '{}', dataParamsJson: '{}', createdAt: now() });
    await store().runs.queue({ sessionId: first.sessionId, id: later }, changeFor('run'), now());
    const ended = await store().runs.completeThenClaimNext({ id: first.ids[0]!, runToken: token }, done, now(), { sessionId: first.sessionId, runToken: randomUUID() });
    expect(ended).toEqual({ written: true });
    expect(await statuses([first.ids[0]!, later, other.ids[0]!])).toEqual(['COMPLETE', 'QUEUED', 'QUEUED']);
  });

  it('logs the ended run’s event before the next run’s start', async () => {
    const { sessionId, ids } = await queuedSession(store(), 2);
    const token = randomUUID();
    await store().runs.claim(ids[0]!, token);
    await store().runs.completeThenClaimNext({ id: ids[0]!, runToken: token }, done, now(), { sessionId, runToken: randomUUID() });
    const log = new EventLog(store().db, dialect);
    await log.number();
    const events = (await log.ofSession(sessionId, 0, Number.MAX_SAFE_INTEGER, 100)).map((e) => JSON.parse(e.json) as { type: string; scenario_id: string });
    const lifeCycle = events.filter((e) => e.type === 'scenario.completed' || e.type === 'scenario.started').map((e) => [e.type, e.scenario_id]);
    expect(lifeCycle).toEqual([
      ['scenario.started', ids[0]],
      ['scenario.completed', ids[0]],
      ['scenario.started', ids[1]],
    ]);
  });

  it('passes a freed slot fairly between sessions running several at once, not counting the run that ended', async () => {
    const max = 2;
    // Session A holds both its slots with a third run queued; session B holds one slot, its next queued after A's.
    const a = await queuedSession(store(), 3);
    const b = await queuedSession(store(), 2);
    // Claimed as fairness lets them: A's first, B's first, then A's second (A's head is the older).
    const endingToken = randomUUID();
    expect((await store().runs.claim(a.ids[0]!, endingToken, undefined, max))?.id).toBe(a.ids[0]);
    expect((await store().runs.claim(b.ids[0]!, randomUUID(), undefined, max))?.id).toBe(b.ids[0]);
    expect((await store().runs.claim(a.ids[1]!, randomUUID(), undefined, max))?.id).toBe(a.ids[1]);
    // A's run ends: A then runs one as B does, and A's head is the older, so the slot stays A's.
    const ended = await store().runs.completeThenClaimNext({ id: a.ids[0]!, runToken: endingToken }, done, now(), { sessionId: a.sessionId, runToken: randomUUID(), maxRunning: max });
    expect(ended).toMatchObject({ written: true, next: { id: a.ids[2] } });
    expect(await statuses([...a.ids, ...b.ids])).toEqual(['COMPLETE', 'PROCESSING', 'PROCESSING', 'PROCESSING', 'QUEUED']);
  });

  it('claims nothing, and writes nothing, when the run no longer owns its row', async () => {
    const { sessionId, ids } = await queuedSession(store(), 2);
    await store().runs.claim(ids[0]!, randomUUID());
    const ended = await store().runs.completeThenClaimNext({ id: ids[0]!, runToken: 'not-the-token' }, done, now(), { sessionId, runToken: randomUUID() });
    expect(ended).toEqual({ written: false });
    expect(await statuses(ids)).toEqual(['PROCESSING', 'QUEUED']);
  });
});
