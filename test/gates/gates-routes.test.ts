import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { injectSender, type Reply, type Send } from '../fixtures/scenario-client.js';
import { DIALECTS } from '../support/dialects.js';
import { startTestApp, type TestApp } from '../support/test-app.js';
import { until } from '../support/until.js';

interface KpiLine {
  kpi: string;
  verdict: string;
  mean_difference: number | null;
  median_difference: number | null;
  ci: [number, number] | null;
  p_value: number | null;
  n: number;
  test: string | null;
  differences: number[];
}
interface GateBody {
  id: string;
  name: string;
  size: number;
  dataset_keys: string[];
  kpi_names: string[];
  status: 'running' | 'complete';
  counts: Record<string, number>;
  progress: number;
  verdict: string | null;
  kpis: KpiLine[] | null;
}
interface ErrorBody {
  code: string;
  detail: string;
  errors?: { path: string; message: string }[];
}
interface ScenarioItem {
  id: string;
  tag: string;
  seed?: number;
  input_data_id: string;
}

const SA = 'Simulated Annealing Slotting';
/**
 * The example's annealing starts from today's slots and improves travel plus 500 m per reslot move:
 * more iterations make a shorter walk, paid for with more reslot moves.
 */
const sa = (iterations: number) => ({ algo_name: SA, algo_params: { iterations } });
const TRAVEL = 'Travel Distance';
const MOVES = 'Reslot Moves';

describe.each(DIALECTS)('gates over HTTP on %s', (dialect) => {
  let t: TestApp;
  let send: Send;
  const post = <T>(path: string, body?: unknown) => send('POST', `/sessions/main${path}`, body) as Promise<Reply<T>>;
  const get = <T>(path: string) => send('GET', `/sessions/main${path}`) as Promise<Reply<T>>;
  const scenarioCount = async () => (await get<{ items: unknown[] }>('/scenarios?limit=500')).body.items.length;

  async function settled(id: string): Promise<GateBody> {
    let last: GateBody | undefined;
    return until(() => `gate ${id} to complete (counts: ${JSON.stringify(last?.counts)})`, async () => {
      const reply = await get<GateBody>(`/gates/${id}`);
      expect(reply.status).toBe(200);
      last = reply.body;
      return reply.body.status === 'complete' && reply.body;
    }, { within: 120_000 });
  }

  beforeAll(async () => {
    t = await startTestApp(dialect);
    send = injectSender(t.app);
  });
  afterAll(() => t?.close());

  it('runs each pair on one dataset with one seed, and passes a longer annealing on travel distance by the stated rule', async () => {
    const rule = { must_pass: [TRAVEL], must_not_fail: [TRAVEL] };
    // (Each gate here waits for real runs: generous timeouts, for a machine shared with other suites.)
    const created = await post<GateBody>('/gates', { name: 'long vs short', baseline: sa(200), candidate: sa(20_000), inputs: { datasets: ['example'] }, repeats: 10, kpis: [MOVES, TRAVEL], rule });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ size: 20, dataset_keys: ['example'], kpi_names: [MOVES, TRAVEL] });
    const gate = await settled(created.body.id);
    expect(gate.counts.COMPLETE).toBe(20);
    expect(gate.verdict).toBe('pass');
    const travel = gate.kpis!.find((k) => k.kpi === TRAVEL)!;
    expect(travel).toMatchObject({ verdict: 'pass', n: 10, test: 'wilcoxon' });
    expect(travel.mean_difference!).toBeLessThan(0);
    expect(travel.ci![1]).toBeLessThan(0);
    expect(travel.p_value!).toBeLessThan(0.05);
    // The price of a shorter walk: more reslot moves, which the rule does not hold against the candidate.
    expect(gate.kpis!.find((k) => k.kpi === MOVES)).toMatchObject({ verdict: 'fail', n: 10 });
    const runs = (await get<{ items: ScenarioItem[] }>('/scenarios?limit=500&q=long%20vs%20short&fields=id,tag,seed,input_data_id')).body.items;
    expect(runs).toHaveLength(20);
    const seeds = new Set<number | undefined>();
    for (let pair = 1; pair <= 10; pair++) {
      const read = async (side: string) => (await get<ScenarioItem>(`/scenarios/${runs.find((s) => s.tag === `long vs short/${side}/${pair}`)!.id}`)).body;
      const baseline = await read('baseline');
      const candidate = await read('candidate');
      expect(candidate.seed).toBeDefined();
      expect(candidate.seed).toBe(baseline.seed);
      expect(candidate.input_data_id).toBe(baseline.input_data_id);
      seeds.add(candidate.seed);
    }
    // A seed per pair: the repeats differ from one another.
    expect(seeds.size).toBe(10);
    
  }, 300_000);

  it('fails the reverse: the shorter annealing as the candidate walks further', async () => {
    const created = await post<GateBody>('/gates', { name: 'short vs long', baseline: sa(20_000), candidate: sa(200), inputs: { datasets: ['example'] }, repeats: 10, kpis: [TRAVEL] });
    expect(created.status).toBe(201);
    const gate = await settled(created.body.id);
    expect(gate.verdict).toBe('fail');
    expect(gate.kpis![0]).toMatchObject({ kpi: TRAVEL, verdict: 'fail', n: 10 });
  }, 300_000);

  it('is inconclusive for a configuration against itself (A/A), on every KPI of the domain by default', async () => {
    const created = await post<GateBody>('/gates', { name: 'a/a', baseline: sa(200), candidate: sa(200), inputs: { datasets: ['example'] }, repeats: 6, alpha: 0.1 });
    expect(created.status).toBe(201);
    expect(created.body.kpi_names).toEqual(expect.arrayContaining([TRAVEL, 'Zone Balance']));
    const gate = await settled(created.body.id);
    expect(gate.verdict).toBe('inconclusive');
    for (const line of gate.kpis!) {
      // Same data, same seed, same configuration: the very same result in every pair.
      expect(line).toMatchObject({ verdict: 'inconclusive', n: 6, p_value: 1, mean_difference: 0, ci: [0, 0] });
    }
  }, 300_000);

  it('refuses bad inputs with 4xx and a registry code, storing nothing', async () => {
    const before = await scenarioCount();
    const gatesBefore = (await get<{ items: unknown[] }>('/gates')).body.items.length;
    const base = { name: 'bad', baseline: sa(10), candidate: sa(20), inputs: { datasets: ['example'] }, repeats: 2 };
    const cases: [unknown, number, string, string?][] = [
      [{ ...base, candidate: { algo_name: 'No Such Algorithm' } }, 404, 'ALGORITHM_NOT_FOUND'],
      [{ ...base, baseline: { algo_name: 'No Such Algorithm' } }, 404, 'ALGORITHM_NOT_FOUND'],
      // Inputs of another schema than the three the gate takes.
      [{ ...base, inputs: { tables: ['example'] } }, 422, 'INVALID_REQUEST'],
      [{ ...base, inputs: 'example' }, 422, 'INVALID_REQUEST'],
      [{ ...base, inputs: { datasets: [1, 2] } }, 422, 'INVALID_REQUEST'],
      [{ ...base, inputs: { datasets: ['example'], derived_from: 'example' } }, 422, 'INVALID_REQUEST'],
      [{ ...base, repeats: 1.5 }, 422, 'INVALID_REQUEST'],
      [{ ...base, alpha: -0.05 }, 422, 'INVALID_REQUEST'],
      [{ ...base, inputs: { datasets: ['nope'] } }, 404, 'DATASET_NOT_FOUND'],
      [{ ...base, repeats: 0 }, 422, 'INVALID_REQUEST'],
      [{ ...base, alpha: 0 }, 422, 'INVALID_REQUEST'],
      [{ ...base, alpha: 0.6 }, 422, 'INVALID_REQUEST'],
      [{ ...base, kpis: ['Nope'] }, 400, 'GATE_INVALID', 'kpis[0]'],
      [{ ...base, kpis: ['Failing KPI'] }, 400, 'GATE_INVALID', 'kpis[0]'],
      [{ ...base, rule: { must_pass: ['Nope'] } }, 400, 'GATE_INVALID', 'rule.must_pass[0]'],
      [{ ...base, baseline: { algo_name: SA, algo_params: { iterations: -1 } } }, 400, 'PARAMETER_INVALID', 'baseline.algo_params'],
      [{ ...base, candidate: { algo_name: SA, algo_params: { seed: 3 } } }, 400, 'GATE_INVALID', 'candidate.algo_params.seed'],
      [{ ...base, inputs: { derived_from: 'example' } }, 400, 'GATE_INVALID', 'inputs.derived_from'],
      [{ ...base, inputs: { derived_from: 'nope' } }, 404, 'DATASET_NOT_FOUND'],
      [{ ...base, inputs: { plan_versions: 3 } }, 400, 'GATE_INVALID', 'inputs.plan_versions'],
    ];
    for (const [body, status, code, path] of cases) {
      const reply = await post<ErrorBody>('/gates', body);
      expect({ body, status: reply.status, code: reply.body.code }).toEqual({ body, status, code });
      expect(reply.body.detail.length).toBeGreaterThan(0);
      if (path !== undefined) expect(reply.body.errors?.map((e) => e.path)).toContain(path);
    }
    const large = await post<ErrorBody>('/gates', { ...base, repeats: 6000 });
    expect([large.status, large.body.code]).toEqual([413, 'GATE_TOO_LARGE']);
    expect(await scenarioCount()).toBe(before);
    expect((await get<{ items: unknown[] }>('/gates')).body.items).toHaveLength(gatesBefore);
  }, 300_000);

  it('lists gates, refuses a taken name, and deletes a gate with its scenarios', async () => {
    const instant = { algo_name: 'Instant' };
    const created = await post<GateBody>('/gates', { name: 'to delete', baseline: instant, candidate: instant, inputs: { datasets: ['example'] }, repeats: 2 });
    expect(created.status).toBe(201);
    const again = await post<ErrorBody>('/gates', { name: 'to delete', baseline: instant, candidate: instant, inputs: { datasets: ['example'] }, repeats: 2 });
    expect([again.status, again.body.code]).toEqual([409, 'GATE_NAME_TAKEN']);
    await settled(created.body.id);
    const list = await get<{ items: GateBody[]; next_cursor: string | null }>('/gates?limit=500');
    expect(list.body.items.map((g) => g.name)).toContain('to delete');
    const before = await scenarioCount();
    const deleted = await send('DELETE', `/sessions/main/gates/${created.body.id}`);
    expect(deleted.status).toBe(200);
    expect(await scenarioCount()).toBe(before - 4);
    const gone = await get<ErrorBody>(`/gates/${created.body.id}`);
    expect([gone.status, gone.body.code]).toEqual([404, 'GATE_NOT_FOUND']);
    // Both writes are in the audit trail, naming the gate.
    for (const action of ['gate.create', 'gate.delete']) {
      const audit = await get<{ entries: { action: string; targets: Record<string, string> }[] }>(`/audit?action=${action}`);
      expect(audit.body.entries.map((e) => e.targets.gate)).toContain(created.body.id);
    }
  }, 300_000);
});
