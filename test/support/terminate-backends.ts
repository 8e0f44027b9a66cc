import pg from 'pg';
import { POSTGRES_ADMIN_URL } from './dialects.js';
import { until } from './until.js';

/**
 * Ends every server connection to the database, as an operator or a failover would, and returns once
 * PostgreSQL shows none of them any more: pg_terminate_backend only signals a backend, so without this
 * wait the reads that follow would race its exit. Answers how many connections were ended.
 */
export async function terminateBackends(database: string): Promise<number> {
  const admin = new pg.Client({ connectionString: POSTGRES_ADMIN_URL });
  await admin.connect();
  try {
    const res = await admin.query<{ pid: number }>('select pid from pg_stat_activity where datname = $1', [database]);
    const pids = res.rows.map((r) => r.pid);
    await admin.query('select pg_terminate_backend(pid) from unnest($1::int[]) as pid', [pids]);
    await until(`backends ${pids.join(', ')} to end after pg_terminate_backend`, async () => {
      const alive = await admin.query('select 1 from pg_stat_activity where pid = any($1::int[])', [pids]);
      return alive.rowCount === 0;
    }, { within: 10_000, every: 0 });
    return pids.length;
  } finally {
    await admin.end();
  }
}
