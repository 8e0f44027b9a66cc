import { spawn, type ChildProcess } from 'node:child_process';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../support/dialects.js';
import { BIN, REPO_ROOT, startServer, type ServerProcess } from '../support/server-process.js';

/**
 * The multi-process deployment of issue "PostgreSQL and many machines": two API nodes without
 * workers and three worker processes on one PostgreSQL database, all real processes.
 */
// Only an explicit SCENARIST_TEST_DIALECTS without postgres leaves this out.
describe.runIf(DIALECTS.includes('postgres'))('a PostgreSQL deployment of 2 API nodes and 3 worker processes', () => {
  let database: TestDatabase;
  let client: pg.Client;
  const apis: ServerProcess[] = [];
  const workers: ChildProcess[] = [];

  const startWorker = () => {
    const child = spawn(process.execPath, [BIN, 'worker', '--database-url', database.url, '--concurrency', '1', '--log-level', 'warn'], {
      cwd: REPO_ROOT,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    workers.push(child);
    return child;
  };

  beforeAll(async () => {
    database = await createTestDatabase('postgres');
    apis.push(await startServer({ args: ['--database-url', database.url, '--workers', '0', '--log-level', 'warn'] }));
    apis.push(await startServer({ args: ['--database-url', database.url, '--workers', '0', '--log-level', 'warn'] }));
    for (let i = 0; i < 3; i++) startWorker();
    client = new pg.Client({ connectionString: database.url });
    await client.connect();
  }, 120_000);

  afterAll(async () => {
    await client?.end();
    for (const w of workers) if (w.exitCode === null) w.kill('SIGKILL');
    await Promise.all(apis.map((a) => a.dispose()));
    await database?.drop();
  });

  it('runs 100 scenarios of 20 sessions to completion, one PROCESSING per session, surviving a killed worker', async () => {
    const api = (i: number) => apis[i % 2]!.url + '/api/v1';
    const post = async (url: string, body: unknown) => {
      const res = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      if (!res.ok) throw new Error(`${url}: ${res.status} ${await res.text()}`);
      return res.json() as Promise<Record<string, unknown>>;
    };

    // 20 sessions, each with the example dataset (copied from main) and 5 Sleep/Busy scenarios.
    const form = await (await fetch(`${api(0)}/sessions/main/data/example`)).text();
    const scenarios: { sid: string; id: string; node: number }[] = [];
    for (let s = 0; s < 20; s++) {
      const list = (await post(`${api(s)}/sessions`, { display_name: `load ${s}` })) as { sessions: { id: string; display_name: string }[] };
      const sid = list.sessions.find((x) => x.display_name === `load ${s}`)!.id;
      const ingested = await fetch(`${api(s + 1)}/sessions/${sid}/data/from-json`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: form });
      expect(ingested.status).toBe(201);
      for (let k = 0; k < 5; k++) {
        const algo = k % 2 === 0 ? { algo_name: 'Sleep', algo_params: { duration_ms: 400 } } : { algo_name: 'Busy', algo_params: { duration_ms: 100 } };
        const created = await post(`${api(s + k)}/sessions/${sid}/scenarios`, { tag: `t${k}`, dataset_key: 'example', ...algo });
        scenarios.push({ sid, id: created.id as string, node: s + k });
      }
    }

    // Sample the database for two PROCESSING scenarios in one session while everything runs.
    let sampling = true;
    let violations = 0;
    let samples = 0;
    const sampler = (async () => {
      while (sampling) {
        const { rows } = await client.query(
          "select session_id from scenarios where status = 'PROCESSING' group by session_id having count(*) > 1",
        );
        violations += rows.length;
        samples++;
        await new Promise((r) => setTimeout(r, 20));
      }
    })();

    for (const [i, sc] of scenarios.entries()) {
      const res = await fetch(`${api(i)}/sessions/${sc.sid}/scenarios/${sc.id}/run`, { method: 'POST' });
      expect(res.status).toBe(202);
    }

    // Kill one worker while every worker is busy; its run must be taken over by another worker.
    await new Promise((r) => setTimeout(r, 2_000));
    workers[0]!.kill('SIGKILL');

    // Both API nodes give the same answer for a status poll.
    const probe = scenarios[0]!;
    const statuses = await Promise.all(
      [0, 1].map(async (n) => (await (await fetch(`${api(n)}/sessions/${probe.sid}/scenarios/${probe.id}/status`)).json()) as { status: string; id: string }),
    );
    expect(statuses[0]!.id).toBe(probe.id);
    expect(statuses[1]!.status).toBe(statuses[0]!.status);

    const deadline = Date.now() + 120_000;
    for (;;) {
      const { rows } = await client.query<{ status: string; n: string }>('select status, count(*) as n from scenarios group by status');
      const counts = Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
      if ((counts.COMPLETE ?? 0) + (counts.FAILED ?? 0) === scenarios.length) break;
      if (Date.now() > deadline) throw new Error(`not drained: ${JSON.stringify(counts)}`);
      await new Promise((r) => setTimeout(r, 250));
    }
    sampling = false;
    await sampler;

    const { rows: final } = await client.query<{ status: string; attempts: number }>('select status, attempts from scenarios');
    expect(final.filter((r) => r.status !== 'COMPLETE')).toEqual([]);
    expect(final.some((r) => r.attempts === 2)).toBe(true); // the killed worker's run, taken over
    expect(samples).toBeGreaterThan(10);
    expect(violations).toBe(0);

    // A finished scenario looks the same from both nodes, KPIs included.
    const views = await Promise.all([0, 1].map(async (n) => (await fetch(`${api(n)}/sessions/${probe.sid}/scenarios/${probe.id}`)).json()));
    expect(views[0]).toEqual(views[1]);
    expect((views[0] as { status: string }).status).toBe('COMPLETE');
  }, 180_000);

  it('stops a run on another host when its scenario is deleted through the other API node', async () => {
    const api = apis[0]!.url + '/api/v1';
    const created = (await (
      await fetch(`${api}/sessions/main/scenarios`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ tag: 'long sleep', dataset_key: 'example', algo_name: 'Sleep', algo_params: { duration_ms: 60_000 } }),
      })
    ).json()) as { id: string };
    expect((await fetch(`${api}/sessions/main/scenarios/${created.id}/run`, { method: 'POST' })).status).toBe(202);
    for (let i = 0; ; i++) {
      const status = (await (await fetch(`${api}/sessions/main/scenarios/${created.id}/status`)).json()) as { status: string };
      if (status.status === 'PROCESSING') break;
      if (i > 200) throw new Error('never started');
      await new Promise((r) => setTimeout(r, 100));
    }
    expect((await fetch(`${apis[1]!.url}/api/v1/sessions/main/scenarios/${created.id}`, { method: 'DELETE' })).status).toBe(204);
    // The next scenario of the session runs at once: the deleted run released its session and worker.
    const next = (await (
      await fetch(`${api}/sessions/main/scenarios`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ tag: 'after delete', dataset_key: 'example', algo_name: 'Instant' }),
      })
    ).json()) as { id: string };
    await fetch(`${api}/sessions/main/scenarios/${next.id}/run`, { method: 'POST' });
    for (let i = 0; ; i++) {
      const status = (await (await fetch(`${api}/sessions/main/scenarios/${next.id}/status`)).json()) as { status: string };
      if (status.status === 'COMPLETE') break;
      if (i > 300) throw new Error(`next scenario stuck in ${status.status}`);
      await new Promise((r) => setTimeout(r, 100));
    }
    const { rows } = await client.query('select id from scenarios where id = $1', [created.id]);
    expect(rows).toEqual([]);
  }, 60_000);
});
