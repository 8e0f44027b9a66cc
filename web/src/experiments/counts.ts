import { STATUSES } from '../api/types.ts';

/**
 * How many scenarios an experiment has now: the sum of its counts by status. Not its `size` (the
 * product of its axes' lengths times its repeats, fixed when it was made): a scenario deleted since is
 * in the size but in no count, and a page that printed the size beside the counts disagreed with itself.
 */
export function scenariosNow(counts: Readonly<Record<(typeof STATUSES)[number], number>>): number {
  return STATUSES.reduce((sum, status) => sum + counts[status], 0);
}
