import pg from 'pg';
import { survivingLostConnections } from '../../store/postgres/lost-connections.js';

/** How long a graphile-worker connection stays idle in the pool before it is closed. */
const BURST_IDLE_MS = 1_000;

/**
 * The connections graphile-worker takes, locks and completes jobs with. Their commits do not wait
 * for the WAL flush (`synchronous_commit = off`): on PostgreSQL every flushed commit costs a disk
 * sync, and a run's job moves through several of them. Nothing is lost that matters: a job is a
 * schedule derived from the scenarios table, whose writes stay synchronous. Should the database
 * crash and forget a job's last changes, a job taken again finds its scenario no longer QUEUED and
 * ends, a job completed again is gone, and the reaper adds one for a QUEUED scenario without a job.
 */
export function openGraphilePool(databaseUrl: string, workers: number): pg.Pool {
  // One connection LISTENs for new jobs; each concurrent job holds one only while it is taken or
  // completed. graphile-worker asks for a pool at least as large as its concurrency (it warns below
  // that), yet it needs that many only in the moment a burst of jobs arrives: closed after a second
  // idle, the burst's connections do not stay to count against the server's `max_connections`.
  // graphile-worker listens for lost connections only while its runner runs; the pool outlives that.
  return survivingLostConnections(
    new pg.Pool({ connectionString: databaseUrl, max: workers + 1, idleTimeoutMillis: BURST_IDLE_MS, options: '-c synchronous_commit=off' }),
  );
}
