import { describe, expect, it } from 'vitest';
import { mulberry32 as generator } from '../../examples/warehouse/random.js';
import { pairedTests } from '../../src/gates/paired-tests.js';
import { pairedVerdict } from '../../src/gates/statistics.js';

/** Box–Muller: standard normal draws. */
const normal = (random: () => number) => () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());

/**
 * A/A: the baseline and the candidate are one configuration, so each pair's difference is noise of
 * mean 0 (normal, or skewed like a heuristic's run-to-run spread). Over many simulated gates the share
 * that does not come out inconclusive is the test's false verdict rate: at most alpha (plus the
 * simulation's own sampling error, three standard errors) is what the docs promise.
 */
function falseVerdictRate(pairs: number, gates: number, alpha: number, noise: (draw: () => number) => number, seed: number) {
  const random = generator(seed);
  const draw = normal(random);
  let decided = 0;
  for (let g = 0; g < gates; g++) {
    const differences = Array.from({ length: pairs }, () => noise(draw) - noise(draw));
    if (pairedVerdict(differences, { betterWhen: 'LOWER', alpha, minEffect: 0 }, pairedTests).verdict !== 'inconclusive') decided++;
  }
  return decided / gates;
}

const GATES = 4000;
const bound = (alpha: number) => alpha + 3 * Math.sqrt((alpha * (1 - alpha)) / GATES);
const gaussian = (draw: () => number) => draw();
/** Log-normal run results: both sides skewed alike, their difference symmetric around 0. */
const skewed = (draw: () => number) => Math.exp(draw());

describe('A/A: a configuration gated against itself', () => {
  for (const [label, pairs] of [['Wilcoxon, 10 pairs', 10], ['Wilcoxon, 20 pairs', 20], ['t-test, 40 pairs', 40]] as const) {
    for (const alpha of [0.05, 0.2]) {
      it(`passes or fails in at most alpha of gates (${label}, alpha ${alpha})`, () => {
        const rate = falseVerdictRate(pairs, GATES, alpha, gaussian, 1000 + pairs);
        expect(rate).toBeLessThanOrEqual(bound(alpha));
        // Not vacuous: the test does spend its alpha (well above half of it).
        expect(rate).toBeGreaterThan(alpha / 2);
      }, 120_000);
    }
  }

  it('keeps the rate with skewed run results too', () => {
    expect(falseVerdictRate(12, GATES, 0.05, skewed, 7)).toBeLessThanOrEqual(bound(0.05));
    expect(falseVerdictRate(40, GATES, 0.05, skewed, 8)).toBeLessThanOrEqual(bound(0.05));
  }, 120_000);
});
