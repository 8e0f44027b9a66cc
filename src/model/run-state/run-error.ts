/**
 * Why a run ended FAILED, for machines: the scenario's `error.code` beside its `error.message`.
 * CANCELLED — a client cancelled it; TIME_LIMIT — it ran past its time limit; INTERRUPTED — the
 * process running it died twice; ALGORITHM_ERROR — the algorithm threw or returned nothing usable;
 * KPI_ERROR — a KPI threw or gave a non-finite number. An external algorithm's program past one of its
 * bounds (docs/external-algorithms.md): OUTPUT_LIMIT — too much on stdout; LOG_LIMIT — a stderr line too
 * long or too many lines a second; MEMORY_LIMIT — it ran out of memory under its address-space limit.
 */
export const RUN_ERROR_CODES = ['CANCELLED', 'TIME_LIMIT', 'INTERRUPTED', 'ALGORITHM_ERROR', 'KPI_ERROR', 'OUTPUT_LIMIT', 'LOG_LIMIT', 'MEMORY_LIMIT'] as const;
export type RunErrorCode = (typeof RUN_ERROR_CODES)[number];

export const isRunErrorCode = (value: unknown): value is RunErrorCode => (RUN_ERROR_CODES as readonly unknown[]).includes(value);

/** The message of a run cancelled by `POST .../cancel`. */
export const CANCELLED_MESSAGE = 'cancelled';

/** A run interrupted once is queued again; one interrupted on its second attempt fails with this. */
export const INTERRUPTED_TWICE = 'the run was interrupted twice (the process running it stopped); reset and run it again';

/** The message of a run stopped at its time limit. */
export function timeLimitMessage(limitMs: number): string {
  return `the run exceeded its time limit of ${formatDuration(limitMs)} and was stopped`;
}

/** 3600000 -> "1 h", 90000 -> "90 s", 1500 -> "1500 ms": the largest unit that divides evenly. */
export function formatDuration(ms: number): string {
  if (ms >= 3_600_000 && ms % 3_600_000 === 0) return `${ms / 3_600_000} h`;
  if (ms >= 60_000 && ms % 60_000 === 0) return `${ms / 60_000} min`;
  if (ms >= 1_000 && ms % 1_000 === 0) return `${ms / 1_000} s`;
  return `${ms} ms`;
}
