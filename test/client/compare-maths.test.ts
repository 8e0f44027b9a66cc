import { describe, expect, it } from 'vitest';
import { defineAlgorithm, defineDomain, defineKpi, type BetterWhen } from '../../src/domain/define.js';
import { DomainRegistry } from '../../src/domain/registry.js';
import { compareScenarios } from '../../src/scenarios/compare.js';
import type { ScenarioRecord } from '../../src/store/scenarios-repository.js';

const kpi = (name: string, betterWhen: BetterWhen) => defineKpi({ name, unit: 'u', betterWhen, compute: () => 0 });

const domain = new DomainRegistry(
  defineDomain({
    name: 'compare-maths',
    schemas: {},
    algorithms: [
      defineAlgorithm({
        name: 'A',
        parameters: { speed: { kind: 'integer', default: 1 }, mode: { kind: 'enum', choices: ['x', 'y'], default: 'x' } },
        run: () => ({}),
      }),
      defineAlgorithm({ name: 'B', parameters: { speed: { kind: 'integer', default: 1 } }, run: () => ({}) }),
    ],
    kpis: [kpi('profit', 'HIGHER'), kpi('cost', 'LOWER'), kpi('fill', 'AT_LEAST'), kpi('late', 'AT_MOST')],
    dataSource: { parameters: { scale: { kind: 'float', default: 1 } } },
  }),
);

function record(id: string, kpis: Record<string, number> | null, algo = 'A', params: Record<string, unknown> = {}): ScenarioRecord {
  return {
    id,
    sessionId: 's',
    tag: `tag-${id}`,
    datasetKey: 'd',
    algoName: algo,
    algoParamsJson: JSON.stringify(params),
    dataParamsJson: '{}',
    status: kpis ? 'COMPLETE' : 'CREATED',
    progress: kpis ? 1 : 0,
    resultJson: kpis ? '{}' : null,
    kpiValuesJson: kpis ? JSON.stringify(kpis) : null,
    error: null,
    errorCode: null,
    createdAt: '2026-01-01T00:00:00.000Z',
    startedAt: null,
    finishedAt: null,
    reportJson: null,
    seed: null,
    parentId: null,
  };
}

describe('compare maths', () => {
  const base = record('a', { profit: 200, cost: 50, fill: 0.8, late: 4 });
  const other = record('b', { profit: 250, cost: 60, fill: 0.6, late: 4 }, 'A', { speed: 3 });
  const worse = record('c', { profit: -100, cost: 0, fill: 0.8, late: 2 }, 'B');
  const view = compareScenarios([base, other, worse], 'a', domain);
  const values = (name: string) => view.kpis.find((k) => k.name === name)!.values;

  it('gives each value its delta and relative delta to the baseline (hand-computed)', () => {
    // profit: 250 − 200 = 50, 50 / 200 = 0.25; −100 − 200 = −300, −300 / 200 = −1.5
    expect(values('profit').map((v) => [v.value, v.delta, v.relative_delta])).toEqual([
      [200, 0, 0],
      [250, 50, 0.25],
      [-100, -300, -1.5],
    ]);
    // cost: 60 − 50 = 10, 10 / 50 = 0.2; 0 − 50 = −50, −50 / 50 = −1
    expect(values('cost').map((v) => [v.delta, v.relative_delta])).toEqual([
      [0, 0],
      [10, 0.2],
      [-50, -1],
    ]);
    // fill: 0.6 − 0.8 = −0.2 (floating point), / 0.8 = −0.25
    expect(values('fill')[1]!.delta).toBeCloseTo(-0.2, 12);
    expect(values('fill')[1]!.relative_delta).toBeCloseTo(-0.25, 12);
  });

  it('judges better and worse by the direction of each KPI', () => {
    expect(values('profit').map((v) => v.comparison)).toEqual(['equal', 'better', 'worse']); // HIGHER
    expect(values('cost').map((v) => v.comparison)).toEqual(['equal', 'worse', 'better']); // LOWER
    expect(values('fill').map((v) => v.comparison)).toEqual(['equal', 'worse', 'equal']); // AT_LEAST: higher is better
    expect(values('late').map((v) => v.comparison)).toEqual(['equal', 'equal', 'better']); // AT_MOST: lower is better
  });

  it('names the best scenario per KPI, the first of equals', () => {
    expect(Object.fromEntries(view.kpis.map((k) => [k.name, k.best]))).toEqual({ profit: 'b', cost: 'c', fill: 'a', late: 'c' });
  });

  it('has no relative delta against a baseline of 0, and nulls for a scenario without KPIs', () => {
    const zero = record('z', { profit: 0, cost: 0, fill: 0, late: 0 });
    const pending = record('p', null);
    const v = compareScenarios([zero, base, pending], 'z', domain).kpis.find((k) => k.name === 'profit')!.values;
    expect(v[1]).toEqual({ scenario_id: 'a', value: 200, delta: 200, relative_delta: null, comparison: 'better' });
    expect(v[2]).toEqual({ scenario_id: 'p', value: null, delta: null, relative_delta: null, comparison: null });
    const againstPending = compareScenarios([pending, base], 'p', domain).kpis[0]!;
    expect(againstPending.values[1]).toMatchObject({ value: 200, delta: null, relative_delta: null, comparison: null });
    expect(againstPending.best).toBe('a');
  });

  it('measures a negative baseline by its magnitude', () => {
    const negative = record('n', { profit: -50, cost: 1, fill: 1, late: 1 });
    const v = compareScenarios([negative, base], 'n', domain).kpis[0]!.values[1]!;
    // 200 − (−50) = 250; 250 / |−50| = 5
    expect([v.delta, v.relative_delta, v.comparison]).toEqual([250, 5, 'better']);
  });

  it('puts parameters side by side, defaults filled in, and marks the ones that differ', () => {
    expect(view.parameters).toEqual([
      { name: 'speed', values: [{ scenario_id: 'a', value: 1 }, { scenario_id: 'b', value: 3 }, { scenario_id: 'c', value: 1 }], differs: true },
      { name: 'mode', values: [{ scenario_id: 'a', value: 'x' }, { scenario_id: 'b', value: 'x' }, { scenario_id: 'c', value: null }], differs: true },
      { name: 'data_params.scale', values: [{ scenario_id: 'a', value: 1 }, { scenario_id: 'b', value: 1 }, { scenario_id: 'c', value: 1 }], differs: false },
    ]);
    expect(view.scenarios.map((s) => [s.id, s.algorithm, s.status])).toEqual([
      ['a', 'A', 'COMPLETE'],
      ['b', 'A', 'COMPLETE'],
      ['c', 'B', 'COMPLETE'],
    ]);
  });
});
