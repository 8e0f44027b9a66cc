import { describe, expect, it } from 'vitest';
import { pairedTests } from '../../src/gates/paired-tests.js';
import { pairedVerdict, T_TEST_FROM, testFor } from '../../src/gates/statistics.js';
import { overall } from '../../src/gates/verdict.js';

// R: x <- c(6, 8, 14, 16, 23, 24, 28, 29, 41, -48, 49, 56, 60, -67, 75)
//    wilcox.test(x)  V = 96, p-value = 0.04126
//    t.test(x)       t = 2.148, df = 14, p-value = 0.0497; 95 percent CI 0.0312 41.8355
const X = [6, 8, 14, 16, 23, 24, 28, 29, 41, -48, 49, 56, 60, -67, 75];
const HIGHER = { betterWhen: 'HIGHER', alpha: 0.05, minEffect: 0 } as const;
const LOWER = { betterWhen: 'LOWER', alpha: 0.05, minEffect: 0 } as const;

describe('paired statistics', () => {
  it('judges small samples by the exact Wilcoxon signed-rank test, as R does', () => {
    const out = pairedVerdict(X, HIGHER, pairedTests);
    expect(out.test).toBe('wilcoxon');
    expect(out.p_value).toBeCloseTo(0.04126, 5);
    expect(out.n).toBe(15);
    expect(out.mean_difference).toBeCloseTo(X.reduce((a, b) => a + b) / 15, 12);
    expect(out.median_difference).toBe(24);
    // The interval is the t-interval of the mean difference, whichever test decides.
    expect(out.ci![0]).toBeCloseTo(0.0312, 4);
    expect(out.ci![1]).toBeCloseTo(41.8355, 4);
  });

  it('judges samples of 30 pairs and more by the paired t-test, as R does', () => {
    const doubled = [...X, ...X];
    expect(testFor(doubled.length)).toBe('t');
    expect(testFor(T_TEST_FROM - 1)).toBe('wilcoxon');
    const out = pairedVerdict(doubled, HIGHER, pairedTests);
    expect(out.test).toBe('t');
    // R: t.test(c(x, x))  t = 3.0915, df = 29, p-value = 0.004371
    expect(out.p_value).toBeCloseTo(0.004371, 6);
  });

  it('reads the direction from the KPI: lower differences pass a LOWER KPI and fail a HIGHER one', () => {
    const lower = [-5, -4, -6, -5.5, -7, -3, -4.5, -2];
    expect(pairedVerdict(lower, LOWER, pairedTests).verdict).toBe('pass');
    expect(pairedVerdict(lower, HIGHER, pairedTests).verdict).toBe('fail');
    expect(pairedVerdict(lower, LOWER, pairedTests).mean_difference).toBeCloseTo(-4.625, 12);
    // 8 pairs all one way, no ties: exact two-sided p = 2 / 2^8.
    expect(pairedVerdict(lower, LOWER, pairedTests).p_value).toBeCloseTo(2 / 256, 12);
  });

  it('passes only when the candidate is better by more than min_effect with confidence', () => {
    const better = [10, 11, 9, 10, 12, 10, 11, 9, 10, 10];
    expect(pairedVerdict(better, { ...HIGHER, minEffect: 5 }, pairedTests).verdict).toBe('pass');
    expect(pairedVerdict(better, { ...HIGHER, minEffect: 10 }, pairedTests).verdict).toBe('inconclusive');
    expect(pairedVerdict(better, { ...HIGHER, minEffect: 50 }, pairedTests).verdict).toBe('inconclusive');
  });

  it('is inconclusive with too few pairs to reach alpha, and with no difference at all', () => {
    // 5 pairs all one way: the smallest exact two-sided p is 2 / 32 = 0.0625 > 0.05.
    expect(pairedVerdict([1, 2, 3, 4, 5], HIGHER, pairedTests)).toMatchObject({ verdict: 'inconclusive', p_value: 0.0625 });
    expect(pairedVerdict([0, 0, 0, 0, 0, 0, 0, 0], HIGHER, pairedTests)).toMatchObject({ verdict: 'inconclusive', p_value: 1, ci: [0, 0], mean_difference: 0 });
    expect(pairedVerdict([3], HIGHER, pairedTests)).toMatchObject({ verdict: 'inconclusive', p_value: null, ci: null, n: 1 });
    expect(pairedVerdict([], HIGHER, pairedTests)).toMatchObject({ verdict: 'inconclusive', p_value: null, mean_difference: null, n: 0 });
  });

  it('is certain when every pair differs by the same amount', () => {
    const same = Array.from({ length: 40 }, () => 2);
    expect(pairedVerdict(same, HIGHER, pairedTests)).toMatchObject({ verdict: 'pass', p_value: 0, ci: [2, 2], test: 't' });
    expect(pairedVerdict(same, LOWER, pairedTests).verdict).toBe('fail');
    expect(pairedVerdict(same, { ...HIGHER, minEffect: 2 }, pairedTests).verdict).toBe('inconclusive');
  });

  it('combines the KPI verdicts by the rule: a must-not-fail failure fails, every must-pass passing passes', () => {
    const rule = { must_pass: ['a'], must_not_fail: ['a', 'b'] };
    expect(overall(rule, [{ kpi: 'a', verdict: 'pass' }, { kpi: 'b', verdict: 'inconclusive' }])).toBe('pass');
    expect(overall(rule, [{ kpi: 'a', verdict: 'pass' }, { kpi: 'b', verdict: 'fail' }])).toBe('fail');
    expect(overall(rule, [{ kpi: 'a', verdict: 'inconclusive' }, { kpi: 'b', verdict: 'pass' }])).toBe('inconclusive');
    expect(overall({ must_pass: [], must_not_fail: ['b'] }, [{ kpi: 'b', verdict: 'pass' }])).toBe('inconclusive');
  });
});
