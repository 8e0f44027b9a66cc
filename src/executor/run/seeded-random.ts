import type { RunRandom } from '../../domain/run-context.js';

/**
 * `ctx.random`: mulberry32, a small, fast 32-bit generator, good enough for heuristics (not for
 * cryptography). The same seed gives the same sequence on every platform, so a run can be repeated.
 */
export function seededRandom(seed: number): RunRandom {
  let state = seed >>> 0;
  const next = (): number => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return Object.freeze({
    seed,
    next,
    int(lo: number, hi: number): number {
      if (!Number.isSafeInteger(lo) || !Number.isSafeInteger(hi) || lo > hi) {
        throw new RangeError(`ctx.random.int(lo, hi) needs integers with lo <= hi, got (${lo}, ${hi})`);
      }
      return lo + Math.floor(next() * (hi - lo + 1));
    },
  });
}
