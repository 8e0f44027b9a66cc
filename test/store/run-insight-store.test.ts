import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { LogLine } from '../../src/model/run-state/run-insight.js';
import { DIALECTS } from '../support/dialects.js';
import { queuedSession, useTestStore } from '../support/test-store.js';

const line = (n: number): LogLine => ({ n, at: '2026-01-01T00:00:00.000Z', level: 'info', message: `line ${n}` });
const REPORT = JSON.stringify({ objective: 1, best_so_far: 1, message: 'ok', at: '2026-01-01T00:00:00.000Z' });

/**
 * Run insight in the runs repository (no executor): only the run holding the row writes it, and
 * every way a run ends without a result of its own (requeue, reset) leaves no report, seed or lines.
 */
describe.each(DIALECTS)('run insight in the store on %s', (dialect) => {
  const store = useTestStore(dialect);

  /** A claimed run, in a session of its own (a session runs one scenario at a time). */
  const claimed = async () => {
    const { sessionId, ids } = await queuedSession(store(), 1);
    const id = ids[0]!;
    const ref = { sessionId, id };
    const runToken = randomUUID();
    const row = await store().runs.claim(id, runToken);
    expect(row).toBeDefined();
    return { ref, key: { id, runToken }, seed: row!.seed };
  };

  it('records a seed at claim and writes reports and lines only under the run token', async () => {
    const { ref, key, seed } = await claimed();
    expect(Number.isInteger(seed) && seed >= 0).toBe(true);
    expect((await store().scenarios.get(ref))?.seed).toBe(seed);
    const lines = { rows: [line(1), line(2)], fresh: true, count: 2 };
    expect(await store().runs.writeRunInsight({ ...key, runToken: 'someone else' }, { reportJson: REPORT, lines })).toBe(false);
    expect((await store().scenarios.logs(ref))?.lines).toEqual([]);
    expect(await store().runs.writeRunInsight(key, { progress: 0.5, reportJson: REPORT, lines })).toBe(true);
    expect((await store().scenarios.status(ref))?.reportJson).toBe(REPORT);
    expect((await store().scenarios.logs(ref))?.lines.map((l) => l.line)).toEqual([1, 2]);
  });

  it('clears report, seed and lines when a stopped run is queued again, and the next run starts its own lines', async () => {
    const { ref, key } = await claimed();
    await store().runs.writeRunInsight(key, { reportJson: REPORT, lines: { rows: [line(1), line(2), line(3)], fresh: true, count: 3 } });
    expect(await store().runs.requeueStopped(key)).toBe(true);
    const requeued = await store().scenarios.get(ref);
    expect(requeued).toMatchObject({ status: 'QUEUED', reportJson: null, seed: null });
    expect(await store().scenarios.logs(ref)).toMatchObject({ logCount: 0, lines: [] });

    const next = { id: ref.id, runToken: randomUUID() };
    expect((await store().runs.claim(ref.id, next.runToken))?.seed).toEqual(expect.any(Number));
    await store().runs.writeRunInsight(next, { lines: { rows: [line(1)], fresh: true, count: 1 } });
    const logs = await store().scenarios.logs(ref);
    expect(logs?.lines.map((l) => l.message)).toEqual(['line 1']);
    const stored = await store().db
      .selectFrom('scenario_log_lines')
      .innerJoin('scenarios', 'scenarios.seq', 'scenario_log_lines.scenario_seq')
      .select('line')
      .where('scenarios.id', '=', ref.id)
      .execute();
    expect(stored).toEqual([{ line: 1 }]);
  });

  it('stores the class and stack of a thrown error with the failure', async () => {
    const { ref, key } = await claimed();
    const thrown = { class: 'ShelfCollapsed', stack: ['at collapse (/d/x.ts:1:1)'] };
    expect(await store().runs.fail(key, { message: 'shelf 7 collapsed', code: 'ALGORITHM_ERROR', thrown }, new Date().toISOString())).toBe(true);
    expect(await store().scenarios.logs(ref)).toMatchObject({ status: 'FAILED', errorClass: 'ShelfCollapsed', errorStack: JSON.stringify(thrown.stack) });
  });
});
