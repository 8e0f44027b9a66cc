import { STATUSES } from '../model/run-state/state-machine.js';
import type { StoredStatus } from '../store/database.js';

/** How many scenarios of an experiment are in each status (every status present, 0 when none). */
export type StatusCounts = Record<StoredStatus, number>;

/** The counts by status and the progress (mean over its scenarios, finished ones counting 1). */
export function countsView(rows: readonly { status: StoredStatus; count: number; progress: number }[]): { counts: StatusCounts; progress: number } {
  const counts = Object.fromEntries(STATUSES.map((s) => [s, 0])) as StatusCounts;
  let total = 0;
  let progress = 0;
  for (const row of rows) {
    counts[row.status] = row.count;
    total += row.count;
    progress += row.progress;
  }
  return { counts, progress: total === 0 ? 0 : Math.min(1, progress / total) };
}
