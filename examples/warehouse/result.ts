import { Type } from '@sinclair/typebox';
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

const point = Type.Object({ x: Type.Number(), y: Type.Number() });

/**
 * `SlottingResult` as a schema: every result is checked against it when its run returns, which is what
 * keeps the Python algorithm's output (the compiler never sees it) fit for the KPIs and views.
 */
const slottingSchema = Type.Object({
  depot: Type.Optional(point),
  assignments: Type.Array(Type.Object({ sku: Type.String(), location: Type.String() })),
  unassigned: Type.Array(Type.String()),
});

/** The result type of every slotting algorithm; the slotting KPIs apply to exactly these. */
// Assignments are keyed by SKU: Compare lists the SKUs a plan moves, and `plan_churn` counts them.
export const slotting = defineResultType<SlottingResult>('slotting', slottingSchema, { keys: { assignments: ['sku'] } });

export const ORIGIN: Point = { x: 0, y: 0 };

/** The smallest valid result: no SKU considered. */
export function emptyResult(depot: Point = ORIGIN): SlottingResult {
  return { depot, assignments: [], unassigned: [] };
}
