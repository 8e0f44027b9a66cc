import { setImmediate as yieldToEventLoop } from 'node:timers/promises';
import type { RunContext } from '../../../src/domain/define.js';
import { mulberry32, randomInt, type Random } from '../random.js';
import { planTravel, UNASSIGNED, type Plan } from './plan.js';
import { allowed, type SlottingProblem } from './slotting-problem.js';

export interface AnnealOptions {
  readonly iterations: number;
  readonly startTemperature: number;
  /** Temperature factor applied after every iteration. */
  readonly coolingRate: number;
  readonly seed: number;
  /** Metres of daily travel one reslot move (a SKU leaving its current location) costs; 0 ignores moves. */
  readonly moveCost: number;
  /**
   * The published plan the run starts from (a warm start), and the metres of daily travel each SKU
   * placed elsewhere than that plan places it costs (`churnWeight`, 0: the plan is only the start).
   */
  readonly previous?: Plan;
  readonly churnWeight?: number;
}

export interface AnnealStats {
  readonly iterations: number;
  readonly accepted_moves: number;
  readonly start_travel: number;
  /** Daily travel of the returned plan. */
  readonly best_travel: number;
  /** Reslot moves of the returned plan (slotted SKUs away from their current location). */
  readonly best_moves: number;
  /** SKUs the returned plan places elsewhere than the previous plan did; null without one. */
  readonly plan_changes: number | null;
}

/** How often (in steps of 1% of the run) progress is reported, the abort signal read and the thread yielded. */
const REPORTS = 100;

/**
 * Simulated annealing over `start`: each iteration proposes swapping the locations of two slotted SKUs, or
 * moving one to a location with room, accepts it by the Metropolis rule, and the best plan seen is returned,
 * so the result is never worse than `start`. The objective is daily travel plus `moveCost` per reslot
 * move plus `churnWeight` per SKU placed elsewhere than the previous plan, so a move cost trades travel
 * for fewer moves and a churn weight for a plan closer to the one being executed. The unassigned set is
 * left as it is (slotting one more SKU never reduces travel). Same
 * seed and inputs, same result.
 */
export async function anneal(
  problem: SlottingProblem,
  start: Plan,
  options: AnnealOptions,
  ctx: Pick<RunContext, 'progress' | 'signal'> & Partial<Pick<RunContext, 'report'>>,
): Promise<{ plan: Plan; stats: AnnealStats }> {
  const walk = new Walk(problem, start, mulberry32(options.seed), penalties(problem, options));
  const chunk = Math.max(1, Math.ceil(options.iterations / REPORTS));
  let temperature = options.startTemperature;
  ctx.signal.throwIfAborted();
  for (let done = 0; done < options.iterations; ) {
    const end = Math.min(options.iterations, done + chunk);
    for (; done < end; done++, temperature *= options.coolingRate) walk.step(temperature);
    ctx.progress(done / options.iterations);
    ctx.report?.({ objective: walk.cost, bestSoFar: walk.bestCost });
    ctx.signal.throwIfAborted();
    // Yields between chunks, so an abort posted to this thread is delivered during a long run.
    await yieldToEventLoop();
  }
  const startTravel = planTravel(problem, start);
  const objective = (plan: Plan) => planTravel(problem, plan) + walk.penalty.of(plan);
  const best = walk.best();
  // Recomputed exactly: the running cost is a sum of deltas and may drift by rounding.
  const keep = objective(best) <= objective(start) ? best : start;
  const stats = {
    iterations: options.iterations,
    accepted_moves: walk.accepted,
    start_travel: startTravel,
    best_travel: planTravel(problem, keep),
    best_moves: planMoves(walk.penalty.home, keep),
    plan_changes: options.previous ? planMoves(options.previous, keep, true) : null,
  };
  return { plan: keep, stats };
}

/**
 * Slotted SKUs away from their location in `home` (-1 for a SKU without one: then every slot is a move,
 * unless `placedOnly`, which counts only SKUs `home` places: a SKU new since a plan is no change of it).
 */
function planMoves(home: Int32Array, plan: Plan, placedOnly = false): number {
  let moves = 0;
  for (let s = 0; s < plan.length; s++) if (plan[s] !== UNASSIGNED && plan[s] !== home[s] && !(placedOnly && home[s]! < 0)) moves++;
  return moves;
}

/** What placing a SKU somewhere costs besides travel: a reslot move away from its current location, a change from the previous plan. */
class Penalties {
  constructor(
    /** Per SKU: the index of its current location, or -1. */
    readonly home: Int32Array,
    private readonly moveCost: number,
    private readonly previous: Int32Array | undefined,
    private readonly churnWeight: number,
  ) {}

  /** The penalty of SKU `s` at location `l`. */
  at(s: number, l: number): number {
    const moved = l === this.home[s] ? 0 : this.moveCost;
    const previous = this.previous?.[s] ?? -1;
    return previous >= 0 && l !== previous ? moved + this.churnWeight : moved;
  }

  /** The penalty of a whole plan. */
  of(plan: Plan): number {
    let total = 0;
    for (let s = 0; s < plan.length; s++) if (plan[s] !== UNASSIGNED) total += this.at(s, plan[s]!);
    return total;
  }
}

function penalties(problem: SlottingProblem, options: AnnealOptions): Penalties {
  const { skus } = problem.data;
  const home = Int32Array.from(skus, (sku) => (sku.currentLocation === null ? -1 : (problem.data.locationIndex.get(sku.currentLocation) ?? -1)));
  return new Penalties(home, options.moveCost, options.previous, options.churnWeight ?? 0);
}

/** The annealing state: the current plan, its cost, and a snapshot of the best plan once we leave it. */
class Walk {
  private readonly plan: Plan;
  private readonly slotted: Int32Array;
  private readonly used: Int32Array;
  /** Daily travel of the current plan and of the best one seen (running sums of deltas). */
  cost: number;
  bestCost: number;
  /** Null while the current plan is the best one; copied only when a worsening move leaves it. */
  private bestPlan: Plan | null = null;
  accepted = 0;

  constructor(
    private readonly problem: SlottingProblem,
    start: Plan,
    private readonly random: Random,
    readonly penalty: Penalties,
  ) {
    this.plan = start.slice();
    this.slotted = Int32Array.from(indicesWhere(start, (l) => l !== UNASSIGNED));
    this.used = new Int32Array(problem.capacity.length);
    for (const l of start) if (l !== UNASSIGNED) this.used[l] = this.used[l]! + 1;
    this.cost = this.bestCost = planTravel(problem, start) + penalty.of(start);
  }

  step(temperature: number): void {
    if (this.slotted.length === 0) return;
    const s = this.slotted[randomInt(this.random, this.slotted.length)]!;
    if (this.random() < 0.5) this.trySwap(s, this.slotted[randomInt(this.random, this.slotted.length)]!, temperature);
    else this.tryMove(s, randomInt(this.random, this.used.length), temperature);
  }

  best(): Plan {
    return this.bestPlan ?? this.plan;
  }

  /** Exchanges the locations of SKUs `s` and `t`. */
  private trySwap(s: number, t: number, temperature: number): void {
    const { plan, problem } = this;
    const [ls, lt] = [plan[s]!, plan[t]!];
    if (ls === lt || !allowed(problem, s, lt) || !allowed(problem, t, ls)) return;
    const travel = (problem.weight[s]! - problem.weight[t]!) * (problem.distance[lt]! - problem.distance[ls]!);
    const delta = travel + this.moved(s, lt) - this.moved(s, ls) + this.moved(t, ls) - this.moved(t, lt);
    if (!this.accepts(delta, temperature)) return;
    this.beforeChange(delta);
    plan[s] = lt;
    plan[t] = ls;
    this.afterChange(delta);
  }

  /** Moves SKU `s` to location `to` if it has room. */
  private tryMove(s: number, to: number, temperature: number): void {
    const { plan, problem, used } = this;
    const from = plan[s]!;
    if (to === from || used[to]! >= problem.capacity[to]! || !allowed(problem, s, to)) return;
    const travel = problem.weight[s]! * (problem.distance[to]! - problem.distance[from]!);
    const delta = travel + this.moved(s, to) - this.moved(s, from);
    if (!this.accepts(delta, temperature)) return;
    this.beforeChange(delta);
    plan[s] = to;
    used[from] = used[from]! - 1;
    used[to] = used[to]! + 1;
    this.afterChange(delta);
  }

  /** What SKU `s` at location `l` costs besides travel. */
  private moved(s: number, l: number): number {
    return this.penalty.at(s, l);
  }

  private accepts(delta: number, temperature: number): boolean {
    return delta <= 0 || this.random() < Math.exp(-delta / temperature);
  }

  private beforeChange(delta: number): void {
    if (delta > 0 && this.bestPlan === null) this.bestPlan = this.plan.slice();
  }

  private afterChange(delta: number): void {
    this.accepted++;
    this.cost += delta;
    if (this.cost < this.bestCost - 1e-9 * Math.max(1, Math.abs(this.bestCost))) {
      this.bestCost = this.cost;
      this.bestPlan = null;
    }
  }
}

function indicesWhere(values: Int32Array, keep: (value: number) => boolean): number[] {
  const indices: number[] = [];
  for (let i = 0; i < values.length; i++) if (keep(values[i]!)) indices.push(i);
  return indices;
}
