import { defineAlgorithm } from '../../../src/domain/define.js';
import type { WarehouseData } from '../model.js';
import { anneal, type AnnealStats } from '../plan/anneal.js';
import { planOfResult, startPlan } from '../plan/start-plan.js';
import { planToResult } from '../plan/plan.js';
import { slotting } from '../result.js';
import { capacityViolations } from '../explanations.js';
import { slottingProblem } from '../plan/slotting-problem.js';
import type { SlottingResult } from '../result.js';
import { depotParameters, zoneParameters } from './shared-parameters.js';

export interface AnnealingResult extends SlottingResult {
  readonly annealing: AnnealStats;
}

export const simulatedAnnealingSlotting = defineAlgorithm({
  name: 'Simulated Annealing Slotting',
  description:
    "Starts from today's slots (or, with a published plan on the same dataset, from that plan) and improves travel plus move_cost per reslot move plus churn_weight per SKU moved from the plan, by random swaps and moves: more iterations, a shorter walk; deterministic per seed (its own per run unless the seed parameter fixes one).",
  parameters: {
    iterations: { kind: 'integer', min: 1, max: 10_000_000, default: 20_000, description: 'Moves to propose.' },
    start_temperature: {
      kind: 'float',
      min: 0.0001,
      default: 100,
      description: 'Initial temperature, in metres of daily travel: how large a worsening is still often accepted.',
    },
    cooling_rate: { kind: 'float', min: 0.5, max: 0.999999, default: 0.995, description: 'Temperature factor per iteration.' },
    // mulberry32 keeps 32 bits of state, so larger seeds would silently alias smaller ones. No default:
    // unset, each run anneals from its own seed (the scenario's `seed`), so repeats of an experiment differ.
    seed: {
      kind: 'integer',
      min: 0,
      max: 4_294_967_295,
      description: "Random seed. Unset, each run draws its own (shown as the run's seed); give a run's seed to repeat that run exactly.",
    },
    move_cost: {
      kind: 'float',
      min: 0,
      default: 500,
      description: 'Metres of daily travel a reslot move must save to be worth making; 0 minimises travel alone.',
    },
    churn_weight: {
      kind: 'float',
      min: 0,
      default: 0,
      description:
        'On a warm start, metres of daily travel placing a SKU elsewhere than the published plan must save to be worth it: higher keeps the plan the warehouse executes; 0 only starts from it. Without a plan it does nothing.',
    },
    ...depotParameters,
    ...zoneParameters,
  },
  seedParameter: 'seed',
  result: slotting,
  warmStart: true,
  async run(data: WarehouseData, params, ctx): Promise<AnnealingResult> {
    const problem = slottingProblem(data, { x: params.depot_x, y: params.depot_y }, params.respect_zones);
    const previous = ctx.previousPlan ? planOfResult(problem, ctx.previousPlan.result) : undefined;
    const options = {
      iterations: params.iterations,
      startTemperature: params.start_temperature,
      coolingRate: params.cooling_rate,
      seed: params.seed ?? ctx.random.seed,
      moveCost: params.move_cost,
      churnWeight: params.churn_weight,
      ...(previous ? { previous } : {}),
    };
    const { plan, stats } = await anneal(problem, startPlan(problem, previous), options, ctx);
    const result = planToResult(problem, plan);
    ctx.explain({ violations: capacityViolations(result, data) });
    return { ...result, annealing: stats };
  },
});
