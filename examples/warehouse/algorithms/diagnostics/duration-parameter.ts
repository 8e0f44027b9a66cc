/** The run length of the timing diagnostics (`Sleep`, `Busy`): up to ten minutes. */
export const durationParameter = {
  duration_ms: { kind: 'integer', min: 0, max: 600_000, default: 1000, description: 'How long to run, in milliseconds.' },
} as const;

/** Progress reports per second: frequent enough for pollers, rare enough to cost nothing. */
export const REPORT_INTERVAL_MS = 50;
