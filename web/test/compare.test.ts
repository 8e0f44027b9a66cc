import { describe, expect, it } from 'vitest';
import { compareLocally, comparisonOf } from '../src/api/compare.ts';
import { kpi, scenario } from './fixtures.ts';

describe('comparison (as the compare route defines it)', () => {
  it('judges a delta by better_when', () => {
    expect(comparisonOf(5, 'HIGHER')).toBe('better');
    expect(comparisonOf(5, 'AT_LEAST')).toBe('better');
    expect(comparisonOf(5, 'LOWER')).toBe('worse');
    expect(comparisonOf(-5, 'AT_MOST')).toBe('better');
    expect(comparisonOf(0, 'LOWER')).toBe('equal');
    expect(comparisonOf(null, 'LOWER')).toBeNull();
  });

  it('computes deltas to the baseline, relative deltas, the best, and differing parameters', () => {
    const a = scenario({
      id: 'a',
      tag: 'A',
      status: 'COMPLETE',
      kpis: { Distance: kpi('Distance', 200), Zero: kpi('Zero', 0, 'HIGHER') },
      algorithm: { name: 'X', parameters: [{ name: 'seed', type: 'integer', required: false, value: 1 }] },
    });
    const b = scenario({
      id: 'b',
      tag: 'B',
      status: 'COMPLETE',
      kpis: { Distance: kpi('Distance', 150), Zero: kpi('Zero', 3, 'HIGHER') },
      algorithm: { name: 'X', parameters: [{ name: 'seed', type: 'integer', required: false, value: 2 }] },
    });
    const result = compareLocally([a, b], ['a', 'b'], 'a');
    const distance = result.kpis.find((k) => k.name === 'Distance')!;
    expect(distance.values).toEqual([
      { scenario_id: 'a', value: 200, delta: 0, relative_delta: 0, comparison: 'equal' },
      { scenario_id: 'b', value: 150, delta: -50, relative_delta: -0.25, comparison: 'better' },
    ]);
    expect(distance.best).toBe('b');
    expect(result.kpis.find((k) => k.name === 'Zero')!.values[1]).toEqual({ scenario_id: 'b', value: 3, delta: 3, relative_delta: null, comparison: 'better' });
    expect(result.parameters).toEqual([{ name: 'seed', values: [{ scenario_id: 'a', value: 1 }, { scenario_id: 'b', value: 2 }], differs: true }]);
  });
});
