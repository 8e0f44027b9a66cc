import { randomUUID } from 'node:crypto';
import { beforeEach, describe, expect, it } from 'vitest';
import { storedExplanation, type StoredExplanation } from '../../src/model/explanation/stored-explanation.js';
import { DIALECTS } from '../support/dialects.js';
import { queuedSession, useTestStore } from '../support/test-store.js';

const now = () => new Date().toISOString();
const violations = Array.from({ length: 1_200 }, (_, i) => ({
  constraint: 'capacity',
  severity: 'hard' as const,
  amount: i + 1,
  rows: [{ table: 'items', key: `item-${i}` }],
  message: `item-${i} is over capacity`,
}));
const explanation = storedExplanation([{ kpi: 'total', by: 'item', value: 4, terms: { a: 1.5, b: 2.5 }, tolerance: 1e-9 }], violations, true);
const explained = (e: StoredExplanation = explanation) => ({ resultJson: '{"total":4}', kpis: { total: 4 }, explanation: e });

/**
 * A run's explanation is written by its completion, in the completion's transaction (plain, or with
 * the session's next claim): served once the run is COMPLETE, never written when the completion does
 * not apply, and never left half-done.
 */
describe.each(DIALECTS)('the explanation written with its completion on %s', (dialect) => {
  const store = useTestStore(dialect);

  beforeEach(async () => {
    await store().db.updateTable('scenarios').set({ status: 'CREATED' }).where('status', 'in', ['QUEUED', 'PROCESSING']).execute();
  });

  const storedRows = async (id: string) =>
    store()
      .db.selectFrom('scenario_explanations as e')
      .innerJoin('scenarios as s', 's.seq', 'e.scenario_seq')
      .select(['e.finished_at', 's.finished_at as scenario_finished_at'])
      .where('s.id', '=', id)
      .execute();
  const status = async (id: string) => (await store().db.selectFrom('scenarios').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status;

  it('is served with the completion, stamped with its finished_at, its violations in order', async () => {
    const { sessionId, ids } = await queuedSession(store(), 1);
    const token = randomUUID();
    await store().runs.claim(ids[0]!, token);
    const at = now();
    expect(await store().runs.complete({ id: ids[0]!, runToken: token }, explained(), at)).toBe(true);
    expect(await status(ids[0]!)).toBe('COMPLETE');
    const row = await store().explanations.read(sessionId, ids[0]!);
    expect(row).toMatchObject({ infeasible: true, violationCount: 1_200 });
    expect(await storedRows(ids[0]!)).toEqual([{ finished_at: at, scenario_finished_at: at }]);
    const page = await store().explanations.violations(row!.scenarioSeq, 499, 2);
    expect(page).toEqual([violations[1_200 - 500], violations[1_200 - 501]]);
  });

  it('is served with a completion that claims the session next run in the same transaction', async () => {
    const { sessionId, ids } = await queuedSession(store(), 2);
    const token = randomUUID();
    await store().runs.claim(ids[0]!, token);
    const ended = await store().runs.completeThenClaimNext({ id: ids[0]!, runToken: token }, explained(), now(), { sessionId, runToken: randomUUID() });
    expect(ended).toMatchObject({ written: true, next: { id: ids[1] } });
    expect(await store().explanations.read(sessionId, ids[0]!)).toMatchObject({ infeasible: true, violationCount: 1_200 });
  });

  it.each([
    ['with its KPI values', { total: 4 }],
    ['without KPI values', {}],
  ])('is served with a completion when it has no violations, %s (one statement on PostgreSQL)', async (_label, kpis: Record<string, number>) => {
    const { sessionId, ids } = await queuedSession(store(), 1);
    const token = randomUUID();
    await store().runs.claim(ids[0]!, token);
    const at = now();
    const plain = storedExplanation([{ kpi: 'total', by: 'item', value: 4, terms: { a: 1.5, b: 2.5 }, tolerance: 1e-9 }], [], false);
    expect(await store().runs.complete({ id: ids[0]!, runToken: token }, { resultJson: '{"total":4}', kpis, explanation: plain }, at)).toBe(true);
    expect(await status(ids[0]!)).toBe('COMPLETE');
    expect(await store().explanations.read(sessionId, ids[0]!)).toMatchObject({ infeasible: false, violationCount: 0 });
    expect(await storedRows(ids[0]!)).toEqual([{ finished_at: at, scenario_finished_at: at }]);
    const stored = await store().db.selectFrom('scenario_kpis').select(['name', 'value']).where('session_id', '=', sessionId).execute();
    expect(stored).toEqual(Object.entries(kpis).map(([name, value]) => ({ name, value })));
    // A later run of the same scenario replaces it, stamped with the new completion.
    await store().db.updateTable('scenarios').set({ status: 'QUEUED' }).where('id', '=', ids[0]!).execute();
    const again = randomUUID();
    await store().runs.claim(ids[0]!, again);
    const later = new Date(Date.parse(at) + 1_000).toISOString();
    expect(await store().runs.complete({ id: ids[0]!, runToken: again }, { resultJson: '{"total":4}', kpis, explanation: storedExplanation([], [], true) }, later)).toBe(true);
    expect(await store().explanations.read(sessionId, ids[0]!)).toMatchObject({ infeasible: true, violationCount: 0 });
    expect(await storedRows(ids[0]!)).toEqual([{ finished_at: later, scenario_finished_at: later }]);
  });

  it('writes nothing when the completion does not apply (the run no longer owns its row)', async () => {
    const { sessionId, ids } = await queuedSession(store(), 2);
    await store().runs.claim(ids[0]!, randomUUID());
    expect(await store().runs.complete({ id: ids[0]!, runToken: 'not-the-token' }, explained(), now())).toBe(false);
    const ended = await store().runs.completeThenClaimNext({ id: ids[0]!, runToken: 'not-the-token' }, explained(), now(), { sessionId, runToken: randomUUID() });
    expect(ended).toEqual({ written: false });
    expect(await storedRows(ids[0]!)).toEqual([]);
    expect(await status(ids[0]!)).toBe('PROCESSING');
  });

  it('leaves the run PROCESSING when its explanation cannot be stored: one transaction with the completion', async () => {
    const { sessionId, ids } = await queuedSession(store(), 2);
    const token = randomUUID();
    await store().runs.claim(ids[0]!, token);
    // `kpis` is NOT NULL: the explanation's row insert fails after the completion's UPDATE.
    const broken = { ...explanation, kpisJson: null as unknown as string };
    await expect(store().runs.complete({ id: ids[0]!, runToken: token }, explained(broken), now())).rejects.toThrow();
    expect(await status(ids[0]!)).toBe('PROCESSING');
    await expect(store().runs.completeThenClaimNext({ id: ids[0]!, runToken: token }, explained(broken), now(), { sessionId, runToken: randomUUID() })).rejects.toThrow();
    expect(await status(ids[0]!)).toBe('PROCESSING');
    expect(await status(ids[1]!)).toBe('QUEUED');
    expect(await storedRows(ids[0]!)).toEqual([]);
    const kpis = await store().db.selectFrom('scenario_kpis').select('name').where('session_id', '=', sessionId).execute();
    expect(kpis).toEqual([]);
  });
});
