import type { ChildProcess } from 'node:child_process';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../support/dialects.js';
import { spawnWorker, startServer, type ServerProcess } from '../support/server-process.js';
import { until } from '../support/until.js';

const SLOTS = 4;
const RUNS = 40;

/**
 * One session's sweep on several slots (`max_running_per_session` 4) across two worker processes,
 * one of which is killed with SIGKILL in the middle: every run ends COMPLETE once, the session never
 * holds more than its slots, and it does use them.
 */
describe.runIf(DIALECTS.includes('postgres'))(`a sweep of one session on ${SLOTS} slots over worker processes, one of them killed`, () => {
  let database: TestDatabase;
  let client: pg.Client;
  let api: ServerProcess;
  const workers: ChildProcess[] = [];
  const slotFlags = ['--max-running-per-session', String(SLOTS)];

  const startWorker = () => workers.push(spawnWorker(database.url, 2, slotFlags));

  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    api = await startServer({ args: ['--database-url', database.url, '--workers', '0', '--log-level', 'warn', ...slotFlags] });
    startWorker();
    startWorker();
    client = new pg.Client({ connectionString: database.url });
    await client.connect();
  }, 120_000);

  afterAll(async () => {
    await client?.end();
    for (const w of workers) if (w.exitCode === null) w.kill('SIGKILL');
    await api?.dispose();
    await database?.drop();
  });

  it('completes every run once, never more than its slots at a time, taking over the killed worker\'s runs', async () => {
    const base = `${api.url}/api/v1`;
    const post = async (url: string, body: unknown) => {
      const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      if (!res.ok) throw new Error(`${url}: ${res.status} ${await res.text()}`);
      return res.json() as Promise<Record<string, unknown>>;
    };
    const list = (await post(`${base}/sessions`, { display_name: 'sweep' })) as { sessions: { id: string; display_name: string }[] };
    const sid = list.sessions.find((s) => s.display_name === 'sweep')!.id;
    const form = await (await fetch(`${base}/sessions/main/data/example`)).text();
    expect((await fetch(`${base}/sessions/${sid}/data/from-json`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: form })).status).toBe(201);

    let sampling = true;
    let most = 0;
    const sampler = (async () => {
      while (sampling) {
        const { rows } = await client.query<{ n: string }>("select count(*) as n from scenarios where session_id = $1 and status = 'PROCESSING'", [sid]);
        most = Math.max(most, Number(rows[0]!.n));
        await new Promise((r) => setTimeout(r, 10));
      }
    })();
    try {
      await post(`${base}/sessions/${sid}/experiments`, {
        name: 'sweep',
        algo_name: 'Sleep',
        dataset_key: 'example',
        axes: { 'algo_params.duration_ms': [400] },
        repeats: RUNS,
        run: true,
      });
      // Killed while it runs some of the session's runs: they are taken over by the other worker.
      await until('three of the session\'s runs to be in flight', async () => {
        const { rows } = await client.query("select 1 from scenarios where session_id = $1 and status = 'PROCESSING'", [sid]);
        return rows.length >= SLOTS - 1;
      }, { within: 60_000, every: 10 });
      workers[0]!.kill('SIGKILL');
      startWorker();
      let counts: Record<string, number> = {};
      await until(() => `the sweep to end (counts: ${JSON.stringify(counts)})`, async () => {
        const { rows } = await client.query<{ status: string; n: string }>('select status, count(*) as n from scenarios where session_id = $1 group by status', [sid]);
        counts = Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
        return (counts.COMPLETE ?? 0) + (counts.FAILED ?? 0) === RUNS;
      }, { within: 120_000, every: 100 });
    } finally {
      sampling = false;
      await sampler.catch(() => undefined);
    }

    const { rows } = await client.query<{ status: string; attempts: number; kpi_rows: string }>(
      `select s.status, s.attempts, (select count(*) from scenario_kpis k where k.scenario_seq = s.seq) as kpi_rows
         from scenarios s where s.session_id = $1`,
      [sid],
    );
    expect(rows).toHaveLength(RUNS);
    expect(rows.filter((r) => r.status !== 'COMPLETE')).toEqual([]);
    // Each run's result is recorded once: the same KPI rows as any other run, none twice.
    expect(new Set(rows.map((r) => r.kpi_rows)).size).toBe(1);
    expect(rows.every((r) => r.attempts <= 2)).toBe(true);
    expect(rows.some((r) => r.attempts === 2)).toBe(true);
    expect(most).toBe(SLOTS);
  }, 240_000);
});
