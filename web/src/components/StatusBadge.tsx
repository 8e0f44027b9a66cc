import type { Status } from '../api/types.ts';

export function StatusBadge({ status }: { status: Status }) {
  return (
    <span className="badge" data-status={status} data-testid="status">
      {status}
    </span>
  );
}
