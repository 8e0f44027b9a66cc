/**
 * How many PostgreSQL connections the store of a worker process running `concurrency` runs at once
 * needs: the runs' ends and claims each hold a connection for a few milliseconds of a run that lasts
 * far longer, so half as many as runs (and two for the process's own work: lease flushes, the reaper,
 * the event numbering) keep them from waiting, and ten is where more stop helping. Every process's
 * pools add up against the server's `max_connections` (100 by default): four worker processes of
 * eight runs each hold about 50 while a sweep runs, where flat pools of ten took the server past its limit.
 */
export function connectionsFor(concurrency: number): number {
  return Math.min(10, 2 + Math.ceil(concurrency / 2));
}
