import type { paths } from 'scenarist/client';

/**
 * A run's latest report (`ctx.report(...)` in an algorithm): on the scenario and its status only once the
 * run has reported, and on `scenario.progress` events (the final one on `scenario.completed|failed`).
 */
export type RunReport = NonNullable<paths['/sessions/{sid}/scenarios/{id}/status']['get']['responses']['200']['content']['application/json']['report']>;

const numberOrNull = (v: unknown): v is number | null => v === null || (typeof v === 'number' && Number.isFinite(v));

/**
 * The report of an event's `report` field, which the typed client leaves `unknown` (events are not in the
 * OpenAPI document); anything not shaped like a report is ignored rather than shown half-read.
 */
export function asRunReport(value: unknown): RunReport | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const r = value as Record<string, unknown>;
  const objective = r.objective ?? null;
  const bestSoFar = r.best_so_far ?? null;
  const message = r.message ?? null;
  if (!numberOrNull(objective) || !numberOrNull(bestSoFar) || (message !== null && typeof message !== 'string') || typeof r.at !== 'string') return undefined;
  return { objective, best_so_far: bestSoFar, message, at: r.at };
}

/** Whether the report has anything to show (a report of only `at` has not). */
export function hasContent(report: RunReport | undefined): report is RunReport {
  return report !== undefined && (report.objective !== null || report.best_so_far !== null || (report.message ?? '') !== '');
}
