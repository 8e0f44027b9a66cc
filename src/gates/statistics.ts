import type { PairedTests } from './paired-tests.js';

/**
 * The paired statistics of a gate, per KPI (docs/api/gates.md, "Statistics"). The tests themselves
 * are stdlib's (paired-tests.ts), handed in by the caller, which loads them on first use.
 */

export type BetterWhen = 'LOWER' | 'HIGHER';
export type KpiVerdict = 'pass' | 'fail' | 'inconclusive';
export type PairedTest = 'wilcoxon' | 't';

/**
 * From this many pairs on, the paired t-test: the mean of that many differences is close enough to
 * normal. Below it, the Wilcoxon signed-rank test, exact for small samples without ties, which assumes
 * no normality (run-to-run noise of a heuristic is often skewed).
 */
export const T_TEST_FROM = 30;

export interface PairedOptions {
  readonly betterWhen: BetterWhen;
  /** Two-sided significance level, in (0, 0.5]. */
  readonly alpha: number;
  /** How much better the candidate must be (in the KPI's unit, ≥ 0) for `pass`. */
  readonly minEffect: number;
}

export interface PairedOutcome {
  readonly verdict: KpiVerdict;
  /** Differences are candidate − baseline, in the KPI's unit (negative is better for a LOWER KPI). */
  readonly mean_difference: number | null;
  readonly median_difference: number | null;
  /** Two-sided (1 − alpha) t-interval of the mean difference; null below 2 pairs. */
  readonly ci: [number, number] | null;
  /** Two-sided p-value of "no difference"; null below 2 pairs. */
  readonly p_value: number | null;
  readonly n: number;
  readonly test: PairedTest | null;
}

type Alternative = 'two-sided' | 'less' | 'greater';

/**
 * One-sample test of `values` against location `mu`. When every value equals one constant the tests
 * have no spread to work with (stdlib's Wilcoxon refuses, the t statistic is infinite or undefined):
 * the answer is then certain, 1 when the constant is `mu` or on the wrong side, else 0.
 */
function oneSample(tests: PairedTests, test: PairedTest, values: readonly number[], alternative: Alternative, mu: number): number {
  const first = values[0]!;
  if (values.every((v) => v === first)) {
    const shift = first - mu;
    if (shift === 0) return 1;
    if (alternative === 'two-sided') return 0;
    return (alternative === 'greater') === shift > 0 ? 0 : 1;
  }
  const x = [...values];
  if (test === 't') return tests.ttest(x, { alternative, mu }).pValue;
  // Zero differences (after the shift) are dropped, as R does; all of them zero is the constant case above.
  return tests.wilcoxon(x, { alternative, mu }).pValue;
}

const mean = (xs: readonly number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

function median(xs: readonly number[]): number {
  const sorted = [...xs].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

function tInterval(tests: PairedTests, xs: readonly number[], alpha: number): [number, number] {
  const m = mean(xs);
  if (xs.every((v) => v === xs[0])) return [m, m];
  const ci = tests.ttest([...xs], { alpha }).ci;
  return [ci[0]!, ci[1]!];
}

/** The test a sample of `n` pairs is judged by. */
export const testFor = (n: number): PairedTest => (n >= T_TEST_FROM ? 't' : 'wilcoxon');

/**
 * The verdict on one KPI from its paired differences (candidate − baseline). `fail` when the candidate
 * is worse with confidence (one-sided test of no difference, at alpha / 2); `pass` when it is better by
 * more than `minEffect` with confidence (one-sided test against a shift of `minEffect`, at alpha / 2);
 * else `inconclusive`. Between them the two one-sided tests spend alpha, so a configuration gated
 * against itself passes or fails in at most alpha of gates (test/gates/aa-rate.test.ts measures it).
 */
export function pairedVerdict(differences: readonly number[], options: PairedOptions, tests: PairedTests): PairedOutcome {
  const n = differences.length;
  if (n === 0) return { verdict: 'inconclusive', mean_difference: null, median_difference: null, ci: null, p_value: null, n, test: null };
  const meanDifference = mean(differences);
  const medianDifference = median(differences);
  if (n < 2) return { verdict: 'inconclusive', mean_difference: meanDifference, median_difference: medianDifference, ci: null, p_value: null, n, test: null };
  // Improvements: positive is better, whichever way the KPI points.
  const sign = options.betterWhen === 'LOWER' ? -1 : 1;
  const improvements = differences.map((d) => sign * d);
  const test = testFor(n);
  const half = options.alpha / 2;
  const worse = oneSample(tests, test, improvements, 'less', 0) < half;
  const better = !worse && oneSample(tests, test, improvements, 'greater', options.minEffect) < half;
  return {
    verdict: worse ? 'fail' : better ? 'pass' : 'inconclusive',
    mean_difference: meanDifference,
    median_difference: medianDifference,
    ci: tInterval(tests, differences, options.alpha),
    p_value: oneSample(tests, test, improvements, 'two-sided', 0),
    n,
    test,
  };
}
