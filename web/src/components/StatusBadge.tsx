import type { Scenario, Status } from '../api/types.ts';

/** A cancelled run ends FAILED with code CANCELLED: the user stopped it, nothing went wrong. */
export const isCancelled = (s: Pick<Scenario, 'status' | 'error'>) => s.status === 'FAILED' && s.error?.code === 'CANCELLED';

/** What a badge says: the status, or CANCELLED (neutral, not a failure) for a cancelled run. */
function shownStatus(s: Pick<Scenario, 'status' | 'error'>): Status | 'CANCELLED' {
  return isCancelled(s) ? 'CANCELLED' : s.status;
}

export function StatusBadge({ status, error }: { status: Status; error?: Scenario['error'] }) {
  const shown = shownStatus({ status, error: error ?? null });
  return (
    <span className="badge" data-status={shown} data-testid="status">
      {shown}
    </span>
  );
}
