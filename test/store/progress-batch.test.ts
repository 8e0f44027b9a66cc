import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { DIALECTS } from '../support/dialects.js';
import { queuedSession, useTestStore } from '../support/test-store.js';

/**
 * A flush writes the live progress of all its runs at once (one statement on PostgreSQL): each row
 * only while it is still its run's, and the answer names the runs whose rows were.
 */
describe.each(DIALECTS)('several runs’ progress written at once on %s', (dialect) => {
  const store = useTestStore(dialect);

  const rowsOf = async (ids: readonly string[]) => {
    const rows = await store().db.selectFrom('scenarios').select(['id', 'progress', 'lease_expires_at']).where('id', 'in', [...ids]).execute();
    return ids.map((id) => rows.find((row) => row.id === id)!);
  };

  it('writes the rows still their runs’, renews their leases, and answers which they were', async () => {
    // Sessions of one run each, so that each is claimed at once.
    const sessions = [await queuedSession(store(), 1), await queuedSession(store(), 1), await queuedSession(store(), 1), await queuedSession(store(), 1)];
    const ids = sessions.map((s) => s.ids[0]!);
    const tokens = ids.map(() => randomUUID());
    for (const [i, id] of ids.entries()) expect((await store().runs.claim(id, tokens[i]!, 1_000))?.id).toBe(id);
    // The third was cancelled meanwhile: no longer PROCESSING.
    await store().db.updateTable('scenarios').set({ status: 'FAILED' }).where('id', '=', ids[2]!).execute();
    const before = await rowsOf(ids);
    const writes = [
      { key: { id: ids[0]!, runToken: tokens[0]! }, progress: 0.25 },
      { key: { id: ids[1]!, runToken: tokens[1]! }, progress: 0.5 },
      { key: { id: ids[2]!, runToken: tokens[2]! }, progress: 0.75 },
      // Another process's claim of the fourth: the token is not this one's.
      { key: { id: ids[3]!, runToken: randomUUID() }, progress: 0.9 },
    ];
    const owned = await store().runs.writeProgressBatch(writes, 60_000);
    expect([...owned].sort()).toEqual([ids[0]!, ids[1]!].sort());
    const after = await rowsOf(ids);
    expect(after.map((r) => r.progress)).toEqual([0.25, 0.5, 0, 0]);
    // Leases renewed a minute ahead for the two written, the others untouched.
    for (const i of [0, 1]) expect(Date.parse(after[i]!.lease_expires_at!)).toBeGreaterThan(Date.parse(before[i]!.lease_expires_at!) + 30_000);
    for (const i of [2, 3]) expect(after[i]!.lease_expires_at).toBe(before[i]!.lease_expires_at);
  });

  it('writes progress alone without a lease, and answers nothing for nothing', async () => {
    const { ids } = await queuedSession(store(), 1);
    const token = randomUUID();
    await store().runs.claim(ids[0]!, token);
    expect([...(await store().runs.writeProgressBatch([{ key: { id: ids[0]!, runToken: token }, progress: 0.4 }]))]).toEqual([ids[0]]);
    expect((await rowsOf(ids))[0]).toMatchObject({ progress: 0.4, lease_expires_at: null });
    expect((await store().runs.writeProgressBatch([])).size).toBe(0);
  });
});
