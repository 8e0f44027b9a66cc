import { describe, expect, it } from 'vitest';
import type { Axis } from '../../src/experiments/grid.js';
import { summariseValues } from '../../src/experiments/summary.js';
import type { KpiValueRow } from '../../src/store/experiment-summary-query.js';

/** Two axes, 2 × 3 combinations: combo = a * 3 + b. */
const AXES: Axis[] = [
  { path: 'algo_params.a', target: { kind: 'algo_params', name: 'a' }, values: [1, 2] },
  { path: 'algo_params.b', target: { kind: 'algo_params', name: 'b' }, values: ['x', 'y', 'z'] },
];
/** cost: lower is better; gain: higher is better; note: no direction (statistics only). */
const DIRECTION = new Map([
  ['cost', 1],
  ['gain', -1],
]);

/** Scenario seq = 10 + combo; (cost, gain) picked so the front is known by hand. */
const POINTS: [combo: number, cost: number, gain: number][] = [
  [0, 5, 1], // dominated by combo 2 (cost 3, gain 4)
  [1, 1, 2], // front: cheapest
  [2, 3, 4], // front
  [3, 6, 9], // front: most gain
  [4, 3, 4], // same as combo 2: on the front too
  [5, 7, 3], // dominated
];
const ROWS: KpiValueRow[] = POINTS.flatMap(([combo, cost, gain]) => [
  { seq: 10 + combo, combo, kpi: 'cost', value: cost },
  { seq: 10 + combo, combo, kpi: 'gain', value: gain },
  { seq: 10 + combo, combo, kpi: 'note', value: combo },
]);

describe('experiment summary figures', () => {
  const summary = summariseValues(ROWS, AXES, DIRECTION);

  it('gives each axis value the mean, min, max and count of every KPI over its scenarios', () => {
    expect(summary.axes.map((a) => a.path)).toEqual(['algo_params.a', 'algo_params.b']);
    // a = 1: combos 0-2 (cost 5, 1, 3); a = 2: combos 3-5 (cost 6, 3, 7).
    expect(summary.axes[0]!.values.map((v) => [v.value, v.kpis.cost])).toEqual([
      [1, { mean: 3, min: 1, max: 5, count: 3 }],
      [2, { mean: 16 / 3, min: 3, max: 7, count: 3 }],
    ]);
    // b = 'y': combos 1 and 4 (gain 2 and 4).
    expect(summary.axes[1]!.values[1]).toEqual({
      value: 'y',
      kpis: { cost: { mean: 2, min: 1, max: 3, count: 2 }, gain: { mean: 3, min: 2, max: 4, count: 2 }, note: { mean: 2.5, min: 1, max: 4, count: 2 } },
    });
  });

  it('names the best scenario of each KPI with a direction, the first created on a tie', () => {
    expect(summary.best).toEqual({ cost: { seq: 11, value: 1 }, gain: { seq: 13, value: 9 } });
  });

  it('lists the non-dominated scenarios of each pair of KPIs with a direction, in creation order', () => {
    expect(summary.fronts).toEqual([{ kpis: ['cost', 'gain'], seqs: [11, 12, 13, 14] }]);
  });

  it('counts only the scenarios that have a value, and has no front without two ranked KPIs', () => {
    const some = summariseValues(ROWS.filter((r) => r.kpi === 'cost' && r.combo < 2), AXES, DIRECTION);
    expect(some.axes[0]!.values[1]!.kpis).toEqual({});
    expect(some.best).toEqual({ cost: { seq: 11, value: 1 } });
    expect(some.fronts).toEqual([]);
  });
});
