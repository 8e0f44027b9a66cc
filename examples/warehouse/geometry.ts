import type { Point } from './result.js';

/**
 * Pickers walk along aisles and cross-aisles, never diagonally through racks, so floor distance is
 * Manhattan distance.
 */
export function manhattan(from: Point, to: Point): number {
  return Math.abs(to.x - from.x) + Math.abs(to.y - from.y);
}

/** Daily walking for one SKU: every pick is a round trip depot → location → depot. */
export function dailyTravel(dailyPicks: number, distance: number): number {
  return dailyPicks * 2 * distance;
}
