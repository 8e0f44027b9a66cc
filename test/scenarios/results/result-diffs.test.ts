import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LogsView } from '../../../src/scenarios/logs-view.js';
import type { ScenarioView } from '../../../src/scenarios/view.js';
import { injectSender, ScenarioClient, type Reply, type Send } from '../../fixtures/scenario-client.js';
import { DIALECTS } from '../../support/dialects.js';
import { startTestApp, type TestApp } from '../../support/test-app.js';

interface Slotting {
  assignments: { sku: string; location: string }[];
  unassigned: string[];
  annealing?: { plan_changes: number | null };
}
interface TableDiff {
  table: string;
  key: string[];
  rows_added: number;
  rows_removed: number;
  rows_changed: number;
  rows_unchanged: number;
  added: Record<string, unknown>[];
  removed: Record<string, unknown>[];
  changed: { key: Record<string, unknown>; changes: Record<string, { from: unknown; to: unknown }> }[];
}
interface CompareBody {
  results: { scenario_id: string; tables: TableDiff[] | null }[];
}
type Item = Partial<ScenarioView> & { id: string };

const GREEDY = { algo_name: 'Greedy Slotting' };
const AS_IS = { algo_name: 'As-Is Slotting' };
const SA = 'Simulated Annealing Slotting';

/** What the diff of two slottings by SKU must count, worked out here from the two results themselves. */
function expectedDiff(from: Slotting, to: Slotting) {
  const before = new Map(from.assignments.map((a) => [a.sku, a.location]));
  const after = new Map(to.assignments.map((a) => [a.sku, a.location]));
  const added = [...after.keys()].filter((sku) => !before.has(sku)).length;
  const removed = [...before.keys()].filter((sku) => !after.has(sku)).length;
  const changed = [...after].filter(([sku, location]) => before.has(sku) && before.get(sku) !== location).length;
  const unchanged = [...after].filter(([sku, location]) => before.get(sku) === location).length;
  return { added, removed, changed, unchanged };
}

describe.each(DIALECTS)('result diffs, plan churn and warm start on %s', (dialect) => {
  let t: TestApp;
  let send: Send;
  let n = 0;

  beforeAll(async () => {
    t = await startTestApp(dialect);
    send = injectSender(t.app);
  });
  afterAll(() => t?.close());

  async function session(): Promise<ScenarioClient> {
    const name = `result diffs ${++n}`;
    expect((await send('POST', '/sessions/main/copy', { new_display_name: name })).status).toBe(201);
    return new ScenarioClient(send, name);
  }
  const complete = async (s: ScenarioClient, body: { tag: string; algo_name: string; algo_params?: unknown; dataset_key?: string }) => {
    const started = await s.started(body);
    expect((await s.waitFor(started.id)).status).toBe('COMPLETE');
    return (await s.get(started.id)).body;
  };
  const publish = async (s: ScenarioClient, id: string) => expect((await send('POST', `/sessions/${s.sid}/scenarios/${id}/publish`, { note: 'this week' })).status).toBe(201);
  const items = async (s: ScenarioClient, query = '') => (await send('GET', `/sessions/${s.sid}/scenarios?limit=500${query}`)).body as { items: Item[] };
  const churnOf = (list: { items: Item[] }, id: string) => list.items.find((item) => item.id === id)?.plan_churn;

  it("compares keyed result tables against the baseline's, row by row by key, with up to 20 examples", async () => {
    const s = await session();
    const greedy = await complete(s, { tag: 'greedy', ...GREEDY });
    const asIs = await complete(s, { tag: 'as is', ...AS_IS });
    const instant = await complete(s, { tag: 'instant', algo_name: 'Instant' });
    const reply = (await send('GET', `/sessions/${s.sid}/compare?ids=${greedy.id},${asIs.id},${instant.id}&baseline=${greedy.id}`)) as Reply<CompareBody>;
    expect(reply.status).toBe(200);
    const [diff, empty] = reply.body.results;
    expect(diff!.scenario_id).toBe(asIs.id);
    const expected = expectedDiff(greedy.result as Slotting, asIs.result as Slotting);
    expect(expected.changed).toBeGreaterThan(20);
    const [table] = diff!.tables!;
    expect(table).toMatchObject({ table: 'assignments', key: ['sku'], rows_added: expected.added, rows_removed: expected.removed, rows_changed: expected.changed, rows_unchanged: expected.unchanged });
    expect(table!.changed).toHaveLength(20);
    const planned = new Map((greedy.result as Slotting).assignments.map((a) => [a.sku, a.location]));
    for (const row of table!.changed) expect(row.changes.location!.from).toBe(planned.get(row.key.sku as string));
    expect(table!.removed.length).toBe(Math.min(20, expected.removed));
    // The Instant diagnostic slots nothing: every row of the baseline is removed.
    const slotted = (greedy.result as Slotting).assignments.length;
    expect(empty!.tables![0]).toMatchObject({ rows_added: 0, rows_removed: slotted, rows_changed: 0, rows_unchanged: 0 });
    const notRun = await s.created({ tag: 'not run', ...GREEDY });
    const pending = (await send('GET', `/sessions/${s.sid}/compare?ids=${greedy.id},${notRun.id}`)) as Reply<CompareBody>;
    expect(pending.body.results).toEqual([{ scenario_id: notRun.id, tables: null }]);
  });

  it('shows plan_churn on every scenario once a plan is published, kept per result and plan', async () => {
    const s = await session();
    const greedy = await complete(s, { tag: 'greedy', ...GREEDY });
    const asIs = await complete(s, { tag: 'as is', ...AS_IS });
    const instant = await complete(s, { tag: 'instant', algo_name: 'Instant' });
    const failed = await s.started({ tag: 'failed', algo_name: 'Fail' });
    expect((await s.waitFor(failed.id)).status).toBe('FAILED');
    const before = await items(s);
    expect(before.items.map((item) => item.plan_churn)).toEqual([null, null, null, null]);
    await publish(s, greedy.id);

    const expected = expectedDiff(greedy.result as Slotting, asIs.result as Slotting);
    const rows = expected.added + expected.removed + expected.changed;
    const churn = { rows_changed: rows, share: rows / (rows + expected.unchanged) };
    const after = await items(s);
    expect(churnOf(after, greedy.id)).toEqual({ rows_changed: 0, share: 0 });
    expect(churnOf(after, asIs.id)).toEqual(churn);
    expect(churnOf(after, instant.id)).toEqual({ rows_changed: (greedy.result as Slotting).assignments.length, share: 1 });
    expect(churnOf(after, failed.id)).toBeNull();
    expect((await s.get(asIs.id)).body.plan_churn).toEqual(churn);
    expect((await s.list()).body.find((v) => v.id === asIs.id)?.plan_churn).toEqual(churn);
    expect(churnOf(await items(s, '&fields=id,plan_churn'), asIs.id)).toEqual(churn);

    // A run that completes after the publication is measured against the plan too.
    const annealed = await complete(s, { tag: 'annealed', algo_name: SA, algo_params: { iterations: 300, seed: 1 } });
    const measured = expectedDiff(greedy.result as Slotting, annealed.result as Slotting);
    expect(churnOf(await items(s), annealed.id)).toEqual({
      rows_changed: measured.added + measured.removed + measured.changed,
      share: (measured.added + measured.removed + measured.changed) / (measured.added + measured.removed + measured.changed + measured.unchanged),
    });
    // A reset result has no churn; its next result is measured afresh, not answered from the old row.
    expect((await s.reset(asIs.id)).status).toBe(200);
    expect(churnOf(await items(s), asIs.id)).toBeNull();
    await s.run(asIs.id);
    expect((await s.waitFor(asIs.id)).status).toBe('COMPLETE');
    expect(churnOf(await items(s), asIs.id)).toEqual(churn);
    // Another plan: every churn is against it.
    await publish(s, asIs.id);
    expect(churnOf(await items(s), asIs.id)).toEqual({ rows_changed: 0, share: 0 });
    expect(churnOf(await items(s), greedy.id)).toEqual({ rows_changed: rows, share: churn.share });
  });

  it('hands a warm-start algorithm the published plan and records warm_start_from (TypeScript)', async () => {
    const s = await session();
    const cold = await complete(s, { tag: 'cold', algo_name: SA, algo_params: { iterations: 100, seed: 1 } });
    expect(cold.warm_start_from).toBeNull();
    expect((cold.result as Slotting).annealing!.plan_changes).toBeNull();
    const greedy = await complete(s, { tag: 'greedy', ...GREEDY });
    await publish(s, greedy.id);
    const warm = await complete(s, { tag: 'warm', algo_name: SA, algo_params: { iterations: 100, seed: 1, churn_weight: 1e9 } });
    expect(warm.warm_start_from).toBe(greedy.id);
    // From the plan (the shortest walk), with every move away from it priced out: the plan itself.
    expect((warm.result as Slotting).annealing!.plan_changes).toBe(0);
    expect((warm.result as Slotting).assignments).toEqual((greedy.result as Slotting).assignments);
    const logs = (await send('GET', `/sessions/${s.sid}/scenarios/${warm.id}/logs`)) as Reply<LogsView>;
    expect(JSON.stringify(logs.body)).toContain(`starting from the published plan (scenario ${greedy.id})`);
    expect((await items(s)).items.find((item) => item.id === warm.id)?.warm_start_from).toBe(greedy.id);
  });

  it('hands an external program the published plan as previous_plan and records warm_start_from (Python)', async () => {
    const s = await session();
    const start = { tag: 'from today', algo_name: 'Local Search (Python)', algo_params: { iterations: 0 } };
    const today = await complete(s, start);
    expect(today.warm_start_from).toBeNull();
    const greedy = await complete(s, { tag: 'greedy', ...GREEDY });
    await publish(s, greedy.id);
    const warm = await complete(s, { ...start, tag: 'from the plan' });
    expect(warm.warm_start_from).toBe(greedy.id);
    // No iterations: its result is where it started, which is the plan, not today's slots.
    const sorted = (r: unknown) => [...(r as Slotting).assignments].sort((a, b) => a.sku.localeCompare(b.sku));
    expect(sorted(warm.result)).toEqual(sorted(greedy.result));
    expect(sorted(today.result)).not.toEqual(sorted(greedy.result));
  });

  it("starts without the plan when the plan's dataset has another key, and records none", async () => {
    const s = await session();
    expect((await send('POST', `/sessions/${s.sid}/data/example/derive`, { new_key: 'next week' })).status).toBe(201);
    const greedy = await complete(s, { tag: 'greedy', ...GREEDY });
    await publish(s, greedy.id);
    const other = await complete(s, { tag: 'other data', algo_name: SA, algo_params: { iterations: 100, seed: 1 }, dataset_key: 'next week' });
    expect(other.warm_start_from).toBeNull();
    expect((other.result as Slotting).annealing!.plan_changes).toBeNull();
    const logs = (await send('GET', `/sessions/${s.sid}/scenarios/${other.id}/logs`)) as Reply<LogsView>;
    expect(JSON.stringify(logs.body)).toContain('no published plan on dataset \\"next week\\"');
  });
});
