import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ReportBody } from '../../../src/decisions/report-body.js';
import type { ExplanationView } from '../../../src/scenarios/explanations/explanation-service.js';
import type { Waterfall } from '../../../src/scenarios/explanations/waterfall.js';
import { injectSender, ScenarioClient, type Send } from '../../fixtures/scenario-client.js';
import { DIALECTS } from '../../support/dialects.js';
import { startTestApp, type TestApp } from '../../support/test-app.js';

interface Dataset {
  tables: Record<string, { columns: { name: string }[]; rows: unknown[][] }>;
}
interface Slotting {
  depot: { x: number; y: number };
  assignments: { sku: string; location: string }[];
}

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
const relative = (a: number, b: number) => Math.abs(a - b) / Math.max(Math.abs(a), Math.abs(b), 1e-300);

/** The warehouse example explains its plans: KPI terms by zone and category, capacity violations, waterfalls. */
describe.each(DIALECTS)('explanations of the warehouse example on %s', (dialect) => {
  let t: TestApp;
  let send: Send;
  let s: ScenarioClient;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    t = await startTestApp(dialect);
    send = injectSender(t.app);
    expect((await send('POST', '/sessions/main/copy', { new_display_name: 'why' })).status).toBe(201);
    s = new ScenarioClient(send, 'why');
    // The what-if: zone A's capacities halved (twos become ones; ones stay ones, rounded half up).
    const derived = await send('POST', '/sessions/why/data/example/derive', {
      new_key: 'zone A halved',
      edits: [{ table: 'warehouse_layout', update: { where: { zone: 'A' }, scale: { capacity: 0.5 } } }],
    });
    expect(derived.status).toBe(201);
    const runs = {
      asIs: { tag: 'as is', algo_name: 'As-Is Slotting' },
      greedy: { tag: 'greedy', algo_name: 'Greedy Slotting' },
      python: { tag: 'python', algo_name: 'Local Search (Python)', algo_params: { iterations: 2000 } },
      halved: { tag: 'as is, zone A halved', algo_name: 'As-Is Slotting', dataset_key: 'zone A halved' },
    };
    for (const [name, body] of Object.entries(runs)) ids[name] = (await s.started(body)).id;
    for (const id of Object.values(ids)) expect((await s.waitFor(id)).status).toBe('COMPLETE');
  }, 240_000);
  afterAll(() => t?.close());

  const explanation = async (id: string, query = '') => {
    const reply = await send('GET', `/sessions/why/scenarios/${id}/explanation${query}`);
    expect(reply.status).toBe(200);
    return reply.body as ExplanationView;
  };
  const kpiValues = async (id: string) => Object.fromEntries(Object.entries((await s.get(id)).body.kpis).map(([name, k]) => [name, k.value]));

  it('gives Travel Distance by zone and Reslot Moves by category, adding up to each KPI within 1e-9', async () => {
    for (const name of ['asIs', 'greedy', 'python', 'halved']) {
      const view = await explanation(ids[name]!);
      const values = await kpiValues(ids[name]!);
      expect(view.kpis.map((k) => [k.kpi, k.by])).toEqual([['Travel Distance', 'zone'], ['Reslot Moves', 'category']]);
      for (const kpi of view.kpis) {
        expect(kpi.value).toBe(values[kpi.kpi]);
        // A KPI of 0 (As-Is moves nothing) has no term: nothing to add up.
        expect(kpi.terms.length > 0).toBe(kpi.value !== 0);
        expect(relative(sum(kpi.terms.map((term) => term.value)), kpi.value)).toBeLessThan(1e-9);
        expect(kpi.adds_up).toBe(true);
      }
      // Largest first.
      const travel = view.kpis[0]!.terms.map((term) => term.value);
      expect(travel).toEqual([...travel].sort((a, b) => b - a));
    }
  });

  it('has no violation for plans within capacity', async () => {
    for (const name of ['asIs', 'greedy', 'python']) expect(await explanation(ids[name]!)).toMatchObject({ violations: [], violation_count: 0, infeasible: false, next_cursor: null });
  });

  it('names existing rows in the capacity violations of a what-if that halves a zone, and pages them', async () => {
    const first = await explanation(ids.halved!, '?limit=4');
    expect(first.infeasible).toBe(true);
    expect(first.violation_count).toBeGreaterThan(4);
    const dataset = (await send('GET', '/sessions/why/data/zone%20A%20halved')).body as Dataset;
    const keys = (table: string, column: string) => {
      const t = dataset.tables[table]!;
      const at = t.columns.findIndex((c) => c.name === column);
      return new Set(t.rows.map((row) => row[at]));
    };
    const locations = keys('warehouse_layout', 'location');
    const skus = keys('sku_data', 'sku');
    const all = [...first.violations];
    let cursor = first.next_cursor;
    while (cursor !== null) {
      const page = await explanation(ids.halved!, `?limit=4&cursor=${cursor}`);
      all.push(...page.violations);
      cursor = page.next_cursor;
    }
    expect(all).toHaveLength(first.violation_count);
    for (const violation of all) {
      expect(violation).toMatchObject({ constraint: 'capacity', severity: 'hard', amount: 1 });
      const [location, ...held] = violation.rows;
      expect(location!.table).toBe('warehouse_layout');
      expect(locations.has(location!.key)).toBe(true);
      expect(String(location!.key)).toMatch(/^A-/);
      expect(held.length).toBe(2);
      for (const row of held) expect(row.table === 'sku_data' && skus.has(row.key)).toBe(true);
    }
    expect(new Set(all.map((v) => v.rows[0]!.key)).size).toBe(all.length);
    // A cursor not given out here is refused, not a 5xx.
    expect((await send('GET', `/sessions/why/scenarios/${ids.halved}/explanation?cursor=nonsense`)).status).toBe(400);
  });

  it("keeps the Python algorithm's own terms as it wrote them", async () => {
    const view = await explanation(ids.python!);
    const result = (await s.get(ids.python!)).body.result as Slotting;
    const dataset = (await send('GET', '/sessions/why/data/example')).body as Dataset;
    const layout = dataset.tables.warehouse_layout!;
    const skuTable = dataset.tables.sku_data!;
    const col = (table: typeof layout, name: string) => table.columns.findIndex((c) => c.name === name);
    const place = new Map(layout.rows.map((r) => [r[col(layout, 'location')], r]));
    const picks = new Map(skuTable.rows.map((r) => [r[col(skuTable, 'sku')], r[col(skuTable, 'daily_picks')] as number]));
    // The same sums, in the program's order: its values arrive exactly, not recomputed elsewhere.
    const byZone = new Map<string, number>();
    for (const { sku, location } of result.assignments) {
      const row = place.get(location)!;
      const distance = Math.abs((row[col(layout, 'x')] as number) - result.depot.x) + Math.abs((row[col(layout, 'y')] as number) - result.depot.y);
      const zone = row[col(layout, 'zone')] as string;
      byZone.set(zone, (byZone.get(zone) ?? 0) + picks.get(sku)! * 2 * distance);
    }
    const travel = view.kpis.find((k) => k.kpi === 'Travel Distance')!;
    expect(Object.fromEntries(travel.terms.map((term) => [term.term, term.value]))).toEqual(Object.fromEntries(byZone));
  });

  it('draws per KPI a waterfall from the baseline to each scenario whose deltas and residual make the KPI delta', async () => {
    const order = [ids.asIs!, ids.greedy!, ids.python!, ids.halved!];
    const reply = await send('GET', `/sessions/why/compare?ids=${order.join(',')}&baseline=${ids.asIs}`);
    expect(reply.status).toBe(200);
    const { explanations } = reply.body as { explanations: Waterfall[] };
    expect(explanations.map((w) => [w.kpi, w.scenario_id])).toEqual(
      ['Travel Distance', 'Reslot Moves'].flatMap((kpi) => order.slice(1).map((id) => [kpi, id])),
    );
    for (const w of explanations) {
      const from = await kpiValues(ids.asIs!);
      const to = await kpiValues(w.scenario_id);
      expect([w.from, w.to]).toEqual([from[w.kpi], to[w.kpi]]);
      for (const term of w.terms) expect(term.delta).toBe(term.to - term.from);
      expect(Math.abs(sum(w.terms.map((term) => term.delta)) + w.residual - (w.to - w.from))).toBeLessThanOrEqual(1e-9 * Math.max(1, Math.abs(w.to - w.from)));
    }
    // Greedy moves the fast movers: Travel Distance falls, and the zones say where.
    const greedyTravel = explanations.find((w) => w.kpi === 'Travel Distance' && w.scenario_id === ids.greedy)!;
    expect(greedyTravel.to).toBeLessThan(greedyTravel.from);
    expect(sum(greedyTravel.terms.map((term) => term.delta))).toBeLessThan(0);
  });

  it('is 409 before a scenario is COMPLETE, and 404 for an unknown one', async () => {
    const waiting = await s.created({ tag: 'not run', algo_name: 'Greedy Slotting' });
    expect((await send('GET', `/sessions/why/scenarios/${waiting.id}/explanation`)).body).toMatchObject({ code: 'RESULT_NOT_READY' });
    expect((await send('GET', '/sessions/why/scenarios/nope/explanation')).status).toBe(404);
  });

  it('is frozen into a report, and copied with its session', async () => {
    const made = await send('POST', '/sessions/why/reports', { title: 'why', ids: [ids.asIs, ids.halved], baseline: ids.asIs });
    expect(made.status).toBe(201);
    const report = made.body as ReportBody;
    const halved = await explanation(ids.halved!);
    expect(report.explanations!.scenarios.find((x) => x.scenario_id === ids.halved)).toMatchObject({ infeasible: true, violation_count: halved.violation_count, kpis: halved.kpis });
    expect(report.explanations!.waterfalls.map((w) => w.scenario_id)).toEqual([ids.halved, ids.halved]);
    const stored = (await send('GET', `/sessions/why/reports/${report.id}`)).body as ReportBody;
    expect(stored.explanations).toEqual(report.explanations);

    expect((await send('POST', '/sessions/why/copy', { new_display_name: 'why copy' })).status).toBe(201);
    const copies = (await send('GET', '/sessions/why%20copy/scenarios')).body as { id: string; tag: string }[];
    const copy = copies.find((c) => c.tag === 'as is, zone A halved')!;
    const copied = (await send('GET', `/sessions/why%20copy/scenarios/${copy.id}/explanation?limit=500`)).body as ExplanationView;
    expect(copied).toMatchObject({ infeasible: true, violation_count: halved.violation_count, kpis: halved.kpis });
  });

  it('serves no explanation of an earlier run once the scenario runs again', async () => {
    expect((await s.reset(ids.halved!)).status).toBe(200);
    expect((await send('GET', `/sessions/why/scenarios/${ids.halved}/explanation`)).status).toBe(409);
  });
});
