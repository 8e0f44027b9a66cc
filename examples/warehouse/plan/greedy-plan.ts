import { UNASSIGNED, type Plan } from './plan.js';
import type { SlottingProblem } from './slotting-problem.js';

/**
 * Fastest movers first, each to the closest location with room left that the zone rule allows.
 *
 * Each SKU only ever takes the first location with room in its candidate list (all locations, or its
 * zone's), and locations never regain room, so one forward-moving cursor per list finds it: after the two
 * sorts the whole assignment is linear. Ties are broken by file order, so the plan is deterministic.
 * Without the zone rule this is optimal (rearrangement inequality over the location slots); with it, it
 * is optimal within each zone for the SKUs bound to that zone, so it never loses to a feasible as-is.
 */
export function greedyPlan(problem: SlottingProblem): Plan {
  const { weight, distance, capacity, skuZone, locationZone, zoneCount } = problem;
  const byDistance = sortedIndices(distance.length, (a, b) => distance[a]! - distance[b]! || a - b);
  const byWeight = sortedIndices(weight.length, (a, b) => weight[b]! - weight[a]! || a - b);
  // Candidate lists: one per zone, and the last one holding every location (for SKUs free to go anywhere).
  const lists: number[][] = Array.from({ length: zoneCount }, () => []);
  for (const l of byDistance) lists[locationZone[l]!]!.push(l);
  lists.push(Array.from(byDistance));
  const cursors = new Int32Array(lists.length);
  const room = Int32Array.from(capacity);
  const plan = new Int32Array(weight.length).fill(UNASSIGNED);
  for (const s of byWeight) {
    const k = skuZone[s]! < 0 ? zoneCount : skuZone[s]!;
    const list = lists[k]!;
    let cursor = cursors[k]!;
    while (cursor < list.length && room[list[cursor]!] === 0) cursor++;
    cursors[k] = cursor;
    if (cursor === list.length) continue;
    const l = list[cursor]!;
    plan[s] = l;
    room[l] = room[l]! - 1;
  }
  return plan;
}

function sortedIndices(n: number, compare: (a: number, b: number) => number): Int32Array {
  const indices = new Int32Array(n);
  for (let i = 0; i < n; i++) indices[i] = i;
  return indices.sort(compare);
}
