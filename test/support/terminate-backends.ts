import pg from 'pg';
import { POSTGRES_ADMIN_URL } from './dialects.js';

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
    const deadline = Date.now() + 10_000;
    for (;;) {
      const alive = await admin.query('select 1 from pg_stat_activity where pid = any($1::int[])', [pids]);
      if (alive.rowCount === 0) break;
      if (Date.now() > deadline) throw new Error(`backends ${pids.join(', ')} still alive 10 s after pg_terminate_backend`);
      await new Promise((resolve) => setImmediate(resolve));
    }
    return pids.length;
  } finally {
    await admin.end();
  }
}
