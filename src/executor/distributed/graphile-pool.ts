import pg from 'pg';
import { connectionsFor } from './connection-budget.js';
import { survivingLostConnections } from '../../store/postgres/lost-connections.js';

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
  // completed, so a job waits for a connection in the pool rather than the server refusing one.
  // graphile-worker listens for lost connections only while its runner runs; the pool outlives that.
  return survivingLostConnections(new pg.Pool({ connectionString: databaseUrl, max: connectionsFor(workers) + 1, options: '-c synchronous_commit=off' }));
}
