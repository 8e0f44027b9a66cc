import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CompareView } from '../../src/scenarios/compare.js';
import { injectSender, ScenarioClient } from '../fixtures/scenario-client.js';
import { DIALECTS } from '../support/dialects.js';
import { startTestApp, type TestApp } from '../support/test-app.js';

const SLOTTING_KPIS = ['Travel Distance', 'Zone Balance', 'Reslot Moves'];

describe.each(DIALECTS)('KPIs that apply to some algorithms only, on %s', (dialect) => {
  let t: TestApp;
  let main: ScenarioClient;
  let counter = 0;
  const tag = () => `kpi scenario ${++counter}`;
  beforeAll(async () => {
    t = await startTestApp(dialect);
    main = new ScenarioClient(injectSender(t.app), 'main');
  });
  afterAll(() => t?.close());

  it('lists in a scenario only the KPIs of its algorithm, valued once COMPLETE', async () => {
    const created = await main.created({ tag: tag(), algo_name: 'Fail' });
    expect(Object.keys(created.kpis)).toEqual(['Failing KPI']);
    const instant = await main.started({ tag: tag(), algo_name: 'Instant' });
    expect((await main.waitFor(instant.id)).status).toBe('COMPLETE');
    const done = (await main.get(instant.id)).body;
    expect(Object.keys(done.kpis)).toEqual(SLOTTING_KPIS);
    expect(Object.values(done.kpis).map((k) => k.value)).toEqual([0, 0, 0]);
  });

  it.each([
    ['nan_kpi', { kpi: 'nan' }, /KPI 'Failing KPI' yielded NaN, not a finite number/],
    ['kpi_error', { kpi: 'throws' }, /KPI 'Failing KPI' failed: KPI failed on purpose/],
  ])('fails a run whose KPI yields no number (%s) with code KPI_ERROR, keeping the result', async (mode, result, message) => {
    const scenario = await main.started({ tag: tag(), algo_name: 'Fail', algo_params: { mode } });
    expect((await main.waitFor(scenario.id)).status).toBe('FAILED');
    const failed = (await main.get(scenario.id)).body;
    expect(failed.error).toEqual({ message: expect.stringMatching(message), code: 'KPI_ERROR' });
    expect(failed.result).toEqual(result);
    expect(failed.kpis['Failing KPI']?.value).toBeNull();
    const reset = await main.reset(scenario.id);
    expect(reset.body).toMatchObject({ status: 'CREATED', result: null, error: null });
  });

  it('keeps no result for a run whose algorithm failed', async () => {
    const scenario = await main.started({ tag: tag(), algo_name: 'Fail', algo_params: { mode: 'raise' } });
    await main.waitFor(scenario.id);
    expect((await main.get(scenario.id)).body).toMatchObject({ status: 'FAILED', result: null, error: { code: 'ALGORITHM_ERROR' } });
  });

  it('compares scenarios of different algorithms: null where a KPI does not apply, absent where it applies to none', async () => {
    const greedy = await main.started({ tag: tag(), algo_name: 'Greedy Slotting' });
    const instant = await main.started({ tag: tag(), algo_name: 'Instant' });
    const fail = await main.started({ tag: tag(), algo_name: 'Fail', algo_params: { mode: 'nan_kpi' } });
    for (const id of [greedy.id, instant.id, fail.id]) await main.waitFor(id);
    const both = await t.app.inject({ method: 'GET', url: `/api/v1/sessions/main/compare?ids=${greedy.id},${instant.id}` });
    expect(both.statusCode).toBe(200);
    expect(both.json<CompareView>().kpis.map((k) => k.name)).toEqual(SLOTTING_KPIS);
    const withFail = (await t.app.inject({ method: 'GET', url: `/api/v1/sessions/main/compare?ids=${greedy.id},${fail.id}` })).json<CompareView>();
    expect(withFail.kpis.map((k) => k.name)).toEqual([...SLOTTING_KPIS, 'Failing KPI']);
    const travel = withFail.kpis.find((k) => k.name === 'Travel Distance')!;
    expect(travel.values.map((v) => v.value === null)).toEqual([false, true]);
  });

  it('sorts a scenario list by a KPI, scenarios without it included', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/sessions/main/scenarios?sort=kpi:Travel%20Distance' });
    expect(res.statusCode).toBe(200);
    const items = res.json<{ items: { kpis: Record<string, { value: number | null }> }[] }>().items;
    const valued = items.map((item) => typeof item.kpis['Travel Distance']?.value === 'number');
    expect(valued).toEqual([...valued].sort((a, b) => Number(b) - Number(a)));
    expect(items.some((item) => item.kpis['Travel Distance'] === undefined)).toBe(true);
    expect(valued.filter(Boolean)).toHaveLength(3); // the Instant and Greedy runs above
  });
});
