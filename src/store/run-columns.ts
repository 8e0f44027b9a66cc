/**
 * The column sets of run state, the only place that lists them: every write of a scenario's run
 * (client run and reset, claim, outcome, requeue, recovery, leases, cancel) spreads one of these,
 * so no transition can forget a column (a re-claimed row keeping an expired lease, say).
 */

/** What a run reported about itself (docs/api/runs.md, "Run insight"): none until a run starts. */
export const NO_INSIGHT = {
  report: null,
  seed: null,
  log_count: 0,
  error_class: null,
  error_stack: null,
} as const;

/** Nothing of a run: what a new, reset or copied-unfinished scenario holds. */
export const NO_RUN = {
  ...NO_INSIGHT,
  progress: 0,
  result: null,
  kpi_values: null,
  error: null,
  error_code: null,
  attempts: 0,
  queue_order: null,
  queued_at: null,
  started_at: null,
  finished_at: null,
  lease_owner: null,
  lease_expires_at: null,
} as const;

/** Back in the queue (keeping its place): not started, owned by no run, under no lease, nothing reported. */
export const NOT_RUNNING = {
  ...NO_INSIGHT,
  progress: 0,
  started_at: null,
  lease_owner: null,
  lease_expires_at: null,
} as const;

/** Ended (COMPLETE or FAILED): out of the queue, owned by no run, under no lease. */
export const ENDED = {
  queue_order: null,
  lease_owner: null,
  lease_expires_at: null,
} as const;
