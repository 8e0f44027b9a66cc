import type { BetterWhen } from '../api/types.ts';

/** Whether a larger value of a KPI is the better one: a threshold direction reads as its side (AT_LEAST as higher, AT_MOST as lower). */
export const higherIsBetter = (direction: BetterWhen): boolean => direction === 'HIGHER' || direction === 'AT_LEAST';

/** True when `a` is strictly better than `b` for a KPI going `direction` (a tie is not better). */
export function better(direction: BetterWhen, a: number, b: number): boolean {
  return higherIsBetter(direction) ? a > b : a < b;
}

/** "lower is better" and the like, for a KPI's direction. */
export function directionText(direction: BetterWhen): string {
  return { HIGHER: 'higher is better', LOWER: 'lower is better', AT_LEAST: 'at least the threshold', AT_MOST: 'at most the threshold' }[direction];
}
