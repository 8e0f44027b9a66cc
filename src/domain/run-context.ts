import type { Explanation } from './explanation.js';

/**
 * What an algorithm gets besides its data and parameters (`run(data, params, ctx)`). Everything here
 * crosses no thread: the executor builds it inside the worker thread running the algorithm.
 */
export interface RunContext<R = unknown> {
  /** Report progress in [0, 1]; values are clamped and never move backwards. */
  progress(fraction: number): void;
  /**
   * Report how the search is going; the latest report wins and is shown by the status route, the
   * scenario and `scenario.progress` events. Numbers must be finite (others are dropped); a message
   * longer than 500 characters is cut.
   */
  report(report: RunReport): void;
  /** Aborted when the scenario is cancelled or deleted, its session removed or its time limit passed; stop promptly. */
  readonly signal: AbortSignal;
  /** Lines go to the server log and are kept with the run (`GET .../scenarios/{id}/logs`, the last 1,000). */
  readonly log: RunLogger;
  /**
   * Random numbers from the seed recorded on the scenario (`seed`): use these instead of
   * `Math.random()` so that a run can be repeated.
   */
  readonly random: RunRandom;
  /** When the run's time limit ends it: its start plus the limit (`timeLimitMs` or `run_time_limit`). */
  readonly deadline: Date;
  /**
   * Says why the result is what it is: KPI terms' values, broken constraints with their rows, whether
   * the problem is infeasible (docs/api/explanations.md). Checked and stored with the result when the
   * run returns; a later call replaces an earlier one. Build it with `defineExplanations(schemas)` to
   * have row references checked by the compiler.
   */
  explain(explanation: Explanation): void;
  /**
   * The published plan this run starts from: present only for an algorithm declaring `warmStart: true`,
   * and only when a plan applies (its dataset has this run's dataset key and its algorithm returns this
   * algorithm's result type). Whenever it is present the scenario records it as `warm_start_from`.
   */
  readonly previousPlan?: PreviousPlan<R>;
}

/** The published plan a warm-started run receives (`ctx.previousPlan`). */
export interface PreviousPlan<R = unknown> {
  /** The plan's scenario id: what the warm-started scenario records as `warm_start_from`. */
  readonly scenarioId: string;
  /** The plan's id (`GET /sessions/{sid}/plan`). */
  readonly planId: string;
  /** The plan scenario's result, as its payload serves it. */
  readonly result: R;
}

/** What `ctx.report` takes; every field is optional. */
export interface RunReport {
  /** The objective value of the current solution. */
  readonly objective?: number;
  /** The best objective value found so far. */
  readonly bestSoFar?: number;
  readonly message?: string;
}

export interface RunLogger {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
  error(message: string, fields?: Record<string, unknown>): void;
}

/** A seeded pseudo-random number generator: the same seed gives the same sequence. */
export interface RunRandom {
  /** The seed of this run (recorded on the scenario). */
  readonly seed: number;
  /** A number in [0, 1). */
  next(): number;
  /** An integer in [lo, hi], both included. */
  int(lo: number, hi: number): number;
}
