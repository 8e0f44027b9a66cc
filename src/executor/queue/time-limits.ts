import type { TimeLimitOf } from './claim.js';

/**
 * The run time limits as plain data: each algorithm's own limit, and the `run_time_limit` setting for
 * the rest (`timeLimitOf` makes the lookup a claim uses).
 */
export interface TimeLimits {
  readonly fallbackMs: number;
  readonly byAlgorithm: Readonly<Record<string, number>>;
}

/** One hour for every algorithm: the `run_time_limit` default. */
export const DEFAULT_TIME_LIMITS: TimeLimits = Object.freeze({ fallbackMs: 3_600_000, byAlgorithm: Object.freeze({}) });

/** The limit of a run of `algoName` under `limits`. */
export function timeLimitOf(limits: TimeLimits): TimeLimitOf {
  return (algoName) => (Object.hasOwn(limits.byAlgorithm, algoName) ? limits.byAlgorithm[algoName]! : limits.fallbackMs);
}
