import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { injectSender, ScenarioClient, type Reply, type Send } from '../fixtures/scenario-client.js';
import { DIALECTS } from '../support/dialects.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

interface ErrorBody {
  detail: string;
  code: string;
  errors?: { path: string; message: string }[];
}
interface ScenarioBody {
  id: string;
  status: string;
  seed?: number;
  result: unknown;
}

const ANNEALING = { algo_name: 'Simulated Annealing Slotting', dataset_key: 'example' };
/** Few iterations: the runs are quick, and still far from converging to one answer. */
const QUICK = { iterations: 2_000 };

/**
 * Repeats exist to see how much a randomised algorithm's result varies. An algorithm declaring a seed
 * parameter anneals from the run's own seed while it is unset, so repeats differ; an experiment giving
 * it a value with repeats above 1 would repeat one run, and is refused with a code that says so.
 */
describe.each(DIALECTS)('experiment repeats and seeds on %s', (dialect) => {
  let t: TestApp;
  let send: Send;
  let n = 0;
  const name = () => `seeded ${++n}`;
  const post = <T>(path: string, body?: unknown) => send('POST', `/sessions/main${path}`, body) as Promise<Reply<T>>;
  const get = <T>(path: string) => send('GET', `/sessions/main${path}`) as Promise<Reply<T>>;

  beforeAll(async () => {
    t = await startTestApp(dialect);
    send = injectSender(t.app);
  });
  afterAll(() => t?.close());

  it('names the seed parameter of each algorithm in the algorithm list (null when it has none)', async () => {
    const { items } = (await get<{ items: { name: string; seed_parameter: string | null }[] }>('/algorithms')).body;
    expect(items.find((a) => a.name === 'Simulated Annealing Slotting')?.seed_parameter).toBe('seed');
    expect(items.find((a) => a.name === 'Greedy Slotting')?.seed_parameter).toBeNull();
  });

  it.each([
    ['a shared value', { algo_params: { ...QUICK, seed: 42 }, axes: { 'algo_params.move_cost': [0, 500] } }, 'algo_params.seed'],
    ['an axis', { algo_params: QUICK, axes: { 'algo_params.seed': [1, 2] } }, 'axes.algo_params.seed'],
  ])('refuses repeats above 1 when the seed parameter is given %s, naming it, and stores nothing', async (_how, body, path) => {
    const before = (await get<unknown[]>('/scenarios')).body.length;
    const reply = await post<ErrorBody>('/experiments', { name: name(), ...ANNEALING, ...body, repeats: 3 });
    expect(reply.status).toBe(400);
    expect(reply.body.code).toBe('EXPERIMENT_REPEATS_SEEDED');
    expect(reply.body.errors?.map((e) => e.path)).toEqual([path]);
    expect(reply.body.detail).toContain(`${path} fixes the seed of every repeat`);
    expect((await get<unknown[]>('/scenarios')).body.length).toBe(before);
  });

  it('accepts a fixed or swept seed with one repeat', async () => {
    const fixed = await post('/experiments', { name: name(), ...ANNEALING, algo_params: { ...QUICK, seed: 42 }, axes: { 'algo_params.move_cost': [0, 500] } });
    expect(fixed.status).toBe(201);
    const swept = await post('/experiments', { name: name(), ...ANNEALING, algo_params: QUICK, axes: { 'algo_params.seed': [1, 2] }, repeats: 1 });
    expect(swept.status).toBe(201);
  });

  it("runs each repeat from its own seed, and a run's seed given as the parameter repeats that run exactly", async () => {
    const created = await post<{ id: string }>('/experiments', { name: name(), ...ANNEALING, algo_params: QUICK, axes: { 'algo_params.respect_zones': [true] }, repeats: 2, run: true });
    expect(created.status).toBe(201);
    const scenarios = new ScenarioClient(send, 'main');
    const { items } = (await get<{ items: { id: string }[] }>(`/scenarios?experiment=${created.body.id}`)).body;
    const runs: ScenarioBody[] = [];
    for (const { id } of items) {
      await scenarios.waitFor(id);
      runs.push((await get<ScenarioBody>(`/scenarios/${id}`)).body);
    }
    const [first, second] = runs as [ScenarioBody, ScenarioBody];
    expect([first.status, second.status]).toEqual(['COMPLETE', 'COMPLETE']);
    expect(first.seed).not.toBe(second.seed);
    expect(first.result).not.toEqual(second.result);

    const again = await scenarios.started({ tag: `${name()} again`, ...ANNEALING, algo_params: { ...QUICK, respect_zones: true, seed: first.seed } });
    await scenarios.waitFor(again.id);
    expect((await get<ScenarioBody>(`/scenarios/${again.id}`)).body.result).toEqual(first.result);
  });
});
