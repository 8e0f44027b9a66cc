import { defineResultType } from '../../src/domain/define.js';

/** What every slotting algorithm returns: plain JSON, stored and served as the scenario's `result`. */

export interface Point {
  readonly x: number;
  readonly y: number;
}

export interface Assignment {
  readonly sku: string;
  readonly location: string;
}

export interface SlottingResult {
  /** Where pickers start and end each trip; the Travel Distance KPI measures from here (absent: the origin). */
  readonly depot?: Point;
  /** One entry per slotted SKU. */
  readonly assignments: readonly Assignment[];
  /** SKUs of the prepared data left without a location. */
  readonly unassigned: readonly string[];
}

/** The result type of every slotting algorithm; the slotting KPIs apply to exactly these. */
export const slotting = defineResultType<SlottingResult>('slotting');

export const ORIGIN: Point = { x: 0, y: 0 };

/** The smallest valid result: no SKU considered. */
export function emptyResult(depot: Point = ORIGIN): SlottingResult {
  return { depot, assignments: [], unassigned: [] };
}
