import { spawn, type ChildProcess } from 'node:child_process';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LISTENER_APPLICATION_NAME } from '../../src/store/postgres/notice-listener.js';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../support/dialects.js';
import { BIN, REPO_ROOT, startServer, type ServerProcess } from '../support/server-process.js';
import { until } from '../support/until.js';

interface ListenerBackend {
  pid: number;
  query: string;
}

/**
 * Each process has one LISTEN connection (event wake-ups and run cancels). When its backend is
 * terminated, nothing is restarted: the process reconnects by itself, and a run cancelled through an
 * API node afterwards is stopped on the worker process by the announced cancel (its log says so),
 * not only by the lease check that is the backstop.
 */
describe.runIf(DIALECTS.includes('postgres'))('the LISTEN connection after its backend is terminated', () => {
  let database: TestDatabase;
  let client: pg.Client;
  let api: ServerProcess;
  let worker: ChildProcess;
  let workerLog = '';

  const listeners = async (): Promise<ListenerBackend[]> =>
    (
      await client.query<ListenerBackend>(
        `select pid, query from pg_stat_activity where datname = current_database() and application_name = $1 order by pid`,
        [LISTENER_APPLICATION_NAME],
      )
    ).rows;

  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    api = await startServer({ args: ['--database-url', database.url, '--workers', '0', '--log-level', 'warn'] });
    worker = spawn(process.execPath, [BIN, 'worker', '--database-url', database.url, '--concurrency', '1', '--log-level', 'info'], {
      cwd: REPO_ROOT,
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    worker.stdout!.on('data', (chunk: Buffer) => (workerLog += chunk.toString('utf8')));
    client = new pg.Client({ connectionString: database.url });
    await client.connect();
  }, 120_000);

  afterAll(async () => {
    await client?.end();
    if (worker && worker.exitCode === null) worker.kill('SIGKILL');
    await api?.dispose();
    await database?.drop();
  });

  it('reconnects by itself, and a run cancelled afterwards through the API node is stopped on the worker process by the announced cancel', async () => {
    const base = `${api.url}/api/v1/sessions/main`;
    const post = (path: string, body?: unknown) =>
      fetch(`${base}${path}`, { method: 'POST', ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }) });
    const statusOf = async (id: string) => ((await (await fetch(`${base}/scenarios/${id}/status`)).json()) as { status: string }).status;
    const { id } = (await (await post('/scenarios', { tag: 'cancelled after a reconnection', dataset_key: 'example', algo_name: 'Sleep', algo_params: { duration_ms: 600_000 } })).json()) as { id: string };
    expect((await post(`/scenarios/${id}/run`)).status).toBe(202);
    await until('the run to start on the worker process', async () => (await statusOf(id)) === 'PROCESSING', { within: 60_000 });

    // One listener per process: the API node's hears event numberings, the worker's hears cancels.
    const before = await until('both processes to listen', async () => {
      const found = await listeners();
      return found.length === 2 && found.every((l) => l.query.startsWith('listen')) && found;
    });
    await client.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = current_database() and application_name = $1', [LISTENER_APPLICATION_NAME]);
    const old = new Set(before.map((l) => l.pid));
    const after = await until(
      () => `both processes to listen again on new connections (seen: ${JSON.stringify(before)})`,
      async () => {
        const found = await listeners();
        return found.length === 2 && found.every((l) => !old.has(l.pid) && l.query.startsWith('listen')) && found;
      },
    );
    expect(after.map((l) => l.query).sort()).toEqual(['listen scenarist_cancel', 'listen scenarist_events']);

    const cancelled = await post(`/scenarios/${id}/cancel`);
    expect(cancelled.status).toBe(200);
    await until(
      () => `the worker process to stop the run on its announced cancel (its log: ${workerLog.slice(-2_000)})`,
      () => workerLog.split('\n').some((line) => line.includes('its cancel was announced') && line.includes(id)),
    );
    // The worker is free again: the session's next run completes.
    const next = (await (await post('/scenarios', { tag: 'after the cancel', dataset_key: 'example', algo_name: 'Instant' })).json()) as { id: string };
    expect((await post(`/scenarios/${next.id}/run`)).status).toBe(202);
    await until('the next run to complete', async () => (await statusOf(next.id)) === 'COMPLETE', { within: 60_000 });
  }, 180_000);
});
