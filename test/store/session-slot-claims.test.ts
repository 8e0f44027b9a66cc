import { describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/dialects.js';
import { queuedSession, useTestStore } from '../support/test-store.js';

const MAX = 3;
const now = () => new Date().toISOString();

/**
 * Several runs of one session at once (`max_running_per_session` above 1): runs of the session ending
 * together each pass their slot to a different next run, in queue order, and claims racing for free
 * slots never take more than the session may hold.
 */
describe.each(DIALECTS)('claims of a session running several at once on %s', (dialect) => {
  const store = useTestStore(dialect);

  const processing = async (sessionId: string) =>
    (await store().db.selectFrom('scenarios').select('id').where('session_id', '=', sessionId).where('status', '=', 'PROCESSING').execute()).map((r) => r.id);

  it(`passes each ended run's slot to its own next run when ${MAX} end at once (${dialect})`, async () => {
    const { runs } = store();
    const { sessionId, ids } = await queuedSession(store(), 9);
    const first = [];
    for (let i = 0; i < MAX; i++) first.push(await runs.claimHeadOfSession(sessionId, `first-${i}`, undefined, MAX));
    expect(first.map((row) => row?.id)).toEqual(ids.slice(0, MAX));
    // Ended together: on PostgreSQL each transaction skips the head another is claiming instead of
    // waiting for it and then finding it taken (which would leave a slot idle with runs queued).
    const ended = await Promise.all(
      first.map((row, i) => runs.completeThenClaimNext({ id: row!.id, runToken: `first-${i}` }, { resultJson: '{}', kpis: {} }, now(), { sessionId, runToken: `next-${i}`, maxRunning: MAX })),
    );
    expect(ended.every((e) => e.written)).toBe(true);
    const next = ended.map((e) => e.next?.id);
    expect(new Set(next)).toEqual(new Set(ids.slice(MAX, 2 * MAX)));
    expect(new Set(await processing(sessionId))).toEqual(new Set(ids.slice(MAX, 2 * MAX)));
  });

  it(`never lets claims racing for free slots hold more than ${MAX} of the session (${dialect})`, async () => {
    const { runs } = store();
    const { sessionId, ids } = await queuedSession(store(), 12);
    const one = await runs.claimHeadOfSession(sessionId, 'held', undefined, MAX);
    expect(one?.id).toBe(ids[0]);
    // Two slots free, six claims at once, and the held run ending with a claim of its next meanwhile.
    const [ended, ...claimed] = await Promise.all([
      runs.completeThenClaimNext({ id: ids[0]!, runToken: 'held' }, { resultJson: '{}', kpis: {} }, now(), { sessionId, runToken: 'after-held', maxRunning: MAX }),
      ...Array.from({ length: 6 }, (_, i) => runs.claimHeadOfSession(sessionId, `racer-${i}`, undefined, MAX)),
    ]);
    expect(ended.written).toBe(true);
    const taken = [ended.next?.id, ...claimed.map((row) => row?.id)].filter((id) => id !== undefined);
    expect(taken).toHaveLength(MAX);
    expect(new Set(taken)).toEqual(new Set(ids.slice(1, 1 + MAX)));
    expect(await processing(sessionId)).toHaveLength(MAX);
  });
});
