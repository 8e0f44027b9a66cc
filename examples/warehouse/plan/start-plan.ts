import type { SlottingResult } from '../result.js';
import { UNASSIGNED, type Plan } from './plan.js';
import { allowed, type SlottingProblem } from './slotting-problem.js';

/**
 * Where annealing starts: each SKU at its location in `previous` (the published plan, on a warm start),
 * else at its current location, when the zone rule allows it and it has room; any SKU left over goes to
 * the closest location with room that the zone rule allows, fastest movers first. Starting from today's
 * slots (not from the greedy optimum) leaves the search room to improve, so more iterations give a
 * shorter walk; starting from the plan keeps what the warehouse already executes.
 */
export function startPlan(problem: SlottingProblem, previous?: Plan): Plan {
  const { data, capacity, distance, weight } = problem;
  const room = Int32Array.from(capacity);
  const plan = new Int32Array(data.skus.length).fill(UNASSIGNED);
  const take = (s: number, l: number | undefined) => {
    if (l === undefined || l < 0 || plan[s] !== UNASSIGNED || room[l]! <= 0 || !allowed(problem, s, l)) return;
    plan[s] = l;
    room[l] = room[l]! - 1;
  };
  if (previous) for (let s = 0; s < plan.length; s++) take(s, previous[s]);
  data.skus.forEach((sku, s) => take(s, sku.currentLocation === null ? undefined : data.locationIndex.get(sku.currentLocation)));
  const byDistance = Array.from(distance.keys()).sort((a, b) => distance[a]! - distance[b]! || a - b);
  const byWeight = Array.from(weight.keys()).sort((a, b) => weight[b]! - weight[a]! || a - b);
  for (const s of byWeight) {
    if (plan[s] !== UNASSIGNED) continue;
    const l = byDistance.find((candidate) => room[candidate]! > 0 && allowed(problem, s, candidate));
    take(s, l);
  }
  return plan;
}

/** The locations a slotting result gives the problem's SKUs (UNASSIGNED for a SKU it does not place, or a location the layout lacks). */
export function planOfResult(problem: SlottingProblem, result: SlottingResult): Plan {
  const skuIndex = new Map(problem.data.skus.map((sku, s) => [sku.id, s]));
  const plan = new Int32Array(problem.data.skus.length).fill(UNASSIGNED);
  for (const { sku, location } of result.assignments) {
    const s = skuIndex.get(sku);
    const l = problem.data.locationIndex.get(location);
    if (s !== undefined && l !== undefined) plan[s] = l;
  }
  return plan;
}
