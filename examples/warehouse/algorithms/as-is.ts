import { defineAlgorithm } from '../../../src/domain/define.js';
import type { WarehouseData } from '../model.js';
import { asIsPlan } from '../plan/as-is-plan.js';
import { planToResult } from '../plan/plan.js';
import { slotting } from '../result.js';
import { capacityViolations } from '../explanations.js';
import { slottingProblem } from '../plan/slotting-problem.js';
import { depotParameters } from './shared-parameters.js';

/** The baseline every other slotting is compared against: today's locations, unchanged. */
export const asIsSlotting = defineAlgorithm({
  name: 'As-Is Slotting',
  description: 'Keeps every SKU at its current location; SKUs without a known one are left unassigned.',
  // Only the depot, so the KPIs measure the baseline from the same point as the other algorithms.
  parameters: depotParameters,
  result: slotting,
  run(data: WarehouseData, params, ctx) {
    const problem = slottingProblem(data, { x: params.depot_x, y: params.depot_y }, false);
    const result = planToResult(problem, asIsPlan(data));
    // Today's slots ignore capacity: a what-if that cuts it shows here which locations overflow.
    ctx.explain({ violations: capacityViolations(result, data) });
    return result;
  },
});
