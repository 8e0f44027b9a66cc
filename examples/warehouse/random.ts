/**
 * mulberry32: a tiny seeded PRNG. `Math.random` cannot be seeded, and runs must be reproducible: the
 * same seed gives the same annealing result and the same sample files.
 */
export type Random = () => number;

/** Returns a generator of floats in [0, 1) fully determined by the 32-bit `seed`. */
export function mulberry32(seed: number): Random {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** An integer in [0, n). */
export function randomInt(random: Random, n: number): number {
  return Math.floor(random() * n);
}
