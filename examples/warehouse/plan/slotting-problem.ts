import { dailyTravel, manhattan } from '../geometry.js';
import type { WarehouseData } from '../model.js';
import type { Point } from '../result.js';

/**
 * The warehouse as dense numeric arrays, so greedy and annealing run in typed-array loops over 100k SKUs
 * instead of chasing maps and strings.
 *
 * Zone rule (`respectZones`): a SKU may only move within the zone of its current location, because zones
 * usually stand for storage conditions (temperature, hazard class, security) that the data does not spell
 * out. A SKU without a known current location may go to any zone.
 */
export interface SlottingProblem {
  readonly data: WarehouseData;
  readonly depot: Point;
  /** Per SKU: daily picks × 2, the travel one metre of location distance costs per day. */
  readonly weight: Float64Array;
  /** Per location: Manhattan distance from the depot. */
  readonly distance: Float64Array;
  /** Per location: how many SKUs it holds. */
  readonly capacity: Int32Array;
  /** Per SKU: the only zone it may use, or -1 for any zone. */
  readonly skuZone: Int32Array;
  /** Per location: its zone. */
  readonly locationZone: Int32Array;
  readonly zoneCount: number;
}

export function slottingProblem(data: WarehouseData, depot: Point, respectZones: boolean): SlottingProblem {
  const zones = new Map<string, number>();
  const zoneOf = (zone: string) => {
    let index = zones.get(zone);
    if (index === undefined) zones.set(zone, (index = zones.size));
    return index;
  };
  const { skus, locations } = data;
  const distance = Float64Array.from(locations, (location) => manhattan(depot, location));
  const capacity = Int32Array.from(locations, (location) => location.capacity);
  const locationZone = Int32Array.from(locations, (location) => zoneOf(location.zone));
  const weight = Float64Array.from(skus, (sku) => dailyTravel(sku.dailyPicks, 1));
  const skuZone = Int32Array.from(skus, (sku) => (respectZones && sku.currentZone !== null ? zoneOf(sku.currentZone) : -1));
  return { data, depot, weight, distance, capacity, skuZone, locationZone, zoneCount: zones.size };
}

/** Whether the zone rule lets SKU `s` use location `l`. */
export function allowed(problem: SlottingProblem, s: number, l: number): boolean {
  const zone = problem.skuZone[s]!;
  return zone < 0 || zone === problem.locationZone[l];
}
