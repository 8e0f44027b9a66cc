import { defineAlgorithm } from '../../../src/domain/define.js';
import type { WarehouseData } from '../model.js';
import { greedyPlan } from '../plan/greedy-plan.js';
import { planToResult } from '../plan/plan.js';
import { slotting } from '../result.js';
import { capacityViolations } from '../explanations.js';
import { slottingProblem } from '../plan/slotting-problem.js';
import { depotParameters, zoneParameters } from './shared-parameters.js';

export const greedySlotting = defineAlgorithm({
  name: 'Greedy Slotting',
  description: 'Assigns the fastest-moving SKUs to the free locations closest to the depot (Manhattan distance).',
  parameters: { ...depotParameters, ...zoneParameters },
  result: slotting,
  run(data: WarehouseData, params, ctx) {
    const problem = slottingProblem(data, { x: params.depot_x, y: params.depot_y }, params.respect_zones);
    const result = planToResult(problem, greedyPlan(problem));
    ctx.explain({ violations: capacityViolations(result, data) });
    return result;
  },
});
