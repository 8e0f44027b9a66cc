import { randomInt } from 'node:crypto';

/**
 * What a run tells about itself besides progress (docs/api/runs.md, "Run insight"): the latest
 * `ctx.report`, its `ctx.log` lines and, when it threw, the error's class and stack. The wire shapes
 * and their bounds, shared by the worker thread that produces them, the store and the routes.
 */

/** The latest `ctx.report` as served (`report` of the status, the scenario and progress events). */
export interface ReportView {
  readonly objective: number | null;
  readonly best_so_far: number | null;
  readonly message: string | null;
  /** When the algorithm reported (ISO). */
  readonly at: string;
}

export const LOG_LEVELS = ['info', 'warn', 'error'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** One `ctx.log` line of a run, numbered from 1 in the order the run wrote them. */
export interface LogLine {
  readonly n: number;
  readonly at: string;
  readonly level: LogLevel;
  readonly message: string;
  /** The JSON text of the line's fields (an object); absent without fields. */
  readonly fieldsJson?: string;
}

/** The error a FAILED run threw: its class and stack frames (the domain module's when identifiable). */
export interface ThrownError {
  readonly class: string;
  readonly stack: readonly string[];
}

/** Lines kept per run: the last ones. */
export const MAX_LOG_LINES = 1_000;
/** Characters of a log message kept; the rest is cut. */
export const MAX_LOG_MESSAGE = 2_000;
/** Characters of a line's fields as JSON; larger fields are left out of the kept line. */
export const MAX_LOG_FIELDS = 4_000;
/** Characters of a report message kept. */
export const MAX_REPORT_MESSAGE = 500;
/** Stack frames kept for a failed run, each cut to `MAX_STACK_LINE` characters. */
export const MAX_STACK_LINES = 50;
export const MAX_STACK_LINE = 500;

/** A stored report (JSON text) back to its wire form; undefined for none. */
export function parseReport(json: string | null | undefined): ReportView | undefined {
  return json === null || json === undefined ? undefined : (JSON.parse(json) as ReportView);
}

/** Seeds are non-negative 31-bit integers: a plain `integer` column in both dialects, exact in JSON. */
const SEED_LIMIT = 2 ** 31;

/** A fresh seed for a run's `ctx.random` (recorded on the scenario at its claim). */
export function newSeed(): number {
  return randomInt(0, SEED_LIMIT);
}
