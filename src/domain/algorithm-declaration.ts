import type { ParamDecls } from '../params/kinds.js';

/**
 * What every algorithm declares, whether it runs as a TypeScript function (`defineAlgorithm`) or as a
 * program of any language (`defineExternalAlgorithm`): the same fields, so discovery, validation,
 * experiments and time limits treat both alike.
 */
export interface AlgorithmDeclaration<P extends ParamDecls = ParamDecls, N extends string = string> {
  readonly name: N;
  readonly description?: string;
  /**
   * Labels clients can filter on, listed by `GET .../algorithms` (e.g. `diagnostic` for algorithms that
   * test the service rather than solve anything, which a user interface may hide).
   */
  readonly tags?: readonly string[];
  readonly parameters: P;
  /** This algorithm's run time limit in ms, instead of the `run_time_limit` setting. */
  readonly timeLimitMs?: number;
  /**
   * The parameter that fixes the algorithm's randomness, when it has one: an `integer` with no default
   * and not required, so that left unset every run takes its own seed (`ctx.random.seed`, or the `seed`
   * of an external program's input, recorded on the scenario as `seed`) and given a value (a run's
   * recorded seed, say) it repeats that run exactly. Declaring it lets the server tell a client what
   * would defeat repeats: an experiment with repeats above 1 that gives this parameter a value is
   * refused (every repeat would be the same run), and `GET .../algorithms` names it (`seed_parameter`).
   */
  readonly seedParameter?: keyof P & string;
  /**
   * Whether the algorithm starts from a previous plan. When it does, each run receives the session's
   * published plan's result whenever that plan's dataset has the run's dataset key (and, when the
   * algorithm declares a result type, the plan's algorithm declares the same one): a TypeScript
   * algorithm as `ctx.previousPlan`, an external program as `previous_plan` in its input. The scenario
   * records which plan it got (`warm_start_from`). docs/api/cycles.md, "Result diffs, churn and warm start".
   */
  readonly warmStart?: boolean;
}
