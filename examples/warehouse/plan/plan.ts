import type { Assignment, SlottingResult } from '../result.js';
import type { SlottingProblem } from './slotting-problem.js';

/**
 * A slotting as dense indices: `plan[s]` is the index in `data.locations` of SKU `data.skus[s]`, or
 * `UNASSIGNED`. Algorithms work on plans and turn them into a `SlottingResult` once, at the end.
 */
export type Plan = Int32Array;
export const UNASSIGNED = -1;

/** The objective every slotting algorithm minimises: metres walked per day (see the Travel Distance KPI). */
export function planTravel(problem: SlottingProblem, plan: Plan): number {
  let total = 0;
  for (let s = 0; s < plan.length; s++) {
    const l = plan[s]!;
    if (l !== UNASSIGNED) total += problem.weight[s]! * problem.distance[l]!;
  }
  return total;
}

export function planToResult(problem: SlottingProblem, plan: Plan): SlottingResult {
  const { skus, locations } = problem.data;
  const assignments: Assignment[] = [];
  const unassigned: string[] = [];
  for (let s = 0; s < skus.length; s++) {
    const l = plan[s]!;
    if (l === UNASSIGNED) unassigned.push(skus[s]!.id);
    else assignments.push({ sku: skus[s]!.id, location: locations[l]!.id });
  }
  return { depot: { x: problem.depot.x, y: problem.depot.y }, assignments, unassigned };
}
