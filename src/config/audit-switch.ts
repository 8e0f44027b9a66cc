/**
 * A benchmark's switch for the audit trail: `SCENARIST_BENCH_AUDIT_OFF=1` starts a server that
 * records nothing, so a benchmark measures the trail's cost beside the same server with it on (as
 * the speed layers are switched in `speed-layers.ts`). Never for a deployment: every write must be
 * recorded, so no setting offers it.
 */
export const AUDIT_OFF_ENV = 'SCENARIST_BENCH_AUDIT_OFF';

const off = process.env[AUDIT_OFF_ENV] === '1';

/** Whether writes are recorded in the audit trail in this process (always, unless a benchmark said otherwise). */
export function auditTrailOn(): boolean {
  return !off;
}
