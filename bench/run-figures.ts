/**
 * The run figures of the budgets in docs/benchmarks.md, shared by the benchmarks that measure them
 * (many-runs, speed-layers): each times sequential requests over one kept-alive connection against a
 * server process of a given build, and the bare node:http floor for as many requests.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { KeepAliveClient } from './keep-alive-client.js';
import { adminDatabaseUrl, json, post, report, startBareNode, startScenarist, withScratchDatabase, type BenchServer } from './support.js';

export type Dialect = 'sqlite' | 'postgres';

/** What a figure is measured on: a checkout's `bin/` and `dist/`, with extra environment (speed layers off). */
export interface Build {
  readonly name: string;
  readonly root: string;
  readonly env?: NodeJS.ProcessEnv;
}

/** A server of `build` on `dialect`, with a scratch PostgreSQL database when needed. */
export async function withServer<T>(dialect: Dialect, build: Build, args: readonly string[], use: (server: BenchServer, databaseUrl?: string) => Promise<T>): Promise<T> {
  const run = async (databaseUrl?: string) => {
    const server = await startScenarist([...args, ...(databaseUrl ? ['--database-url', databaseUrl] : [])], build.root, build.env);
    try {
      return await use(server, databaseUrl);
    } finally {
      await server.stop();
    }
  };
  return dialect === 'sqlite' ? run() : withScratchDatabase(adminDatabaseUrl(), (url) => run(url));
}

interface Scenario {
  id: string;
  status: string;
}

/**
 * Creates `sessions` sessions of `perSession` Instant scenarios each (not timed), then times from the
 * first run request (sent one after another, session by session) until every run is final.
 * `whileQueued` is called once, right after the last run request (not timed apart: one request).
 * Sessions are named `<sessionPrefix>-<n>`: another call on the same server takes another prefix.
 */
export async function timeInstantRuns(server: BenchServer, sessions: number, perSession: number, whileQueued?: () => Promise<void>, sessionPrefix = 'runs'): Promise<number> {
  const base = `${server.url}/api/v1`;
  const example = await (await fetch(`${base}/sessions/main/data/example`)).text();
  const bySession: { api: string; ids: string[] }[] = [];
  for (let s = 0; s < sessions; s++) {
    const name = `${sessionPrefix}-${s}`;
    const list = await json<{ sessions: { id: string; display_name: string }[] }>(post(`${base}/sessions`, { display_name: name }));
    const api = `${base}/sessions/${list.sessions.find((x) => x.display_name === name)!.id}`;
    await json(fetch(`${api}/data/from-json`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: example }));
    const ids: string[] = [];
    for (let k = 0; k < perSession; k++) {
      ids.push((await json<Scenario>(post(`${api}/scenarios`, { tag: `instant ${k}`, dataset_key: 'example', algo_name: 'Instant' }))).id);
    }
    bySession.push({ api, ids });
  }
  const client = new KeepAliveClient(server.url);
  const path = (api: string) => api.slice(server.url.length);
  const started = performance.now();
  for (const { api, ids } of bySession) for (const id of ids) await client.request('POST', `${path(api)}/scenarios/${id}/run`);
  await whileQueued?.();
  // A session runs its scenarios in FIFO order: its last one final means all of them are.
  for (const { api, ids } of bySession) {
    for (;;) {
      const { status } = await client.request<Scenario>('GET', `${path(api)}/scenarios/${ids[ids.length - 1]}/status`);
      if (status === 'COMPLETE' || status === 'FAILED') break;
      await new Promise((r) => setTimeout(r, 2));
    }
  }
  const seconds = (performance.now() - started) / 1000;
  client.close();
  for (const { api, ids } of bySession) {
    const all = await json<Scenario[]>(fetch(`${api}/scenarios`));
    const notComplete = all.filter((s) => ids.includes(s.id) && s.status !== 'COMPLETE');
    // The session's FIFO was broken (its last run ended before an earlier one): the figure is void.
    if (notComplete.length > 0) {
      report(`  runs not COMPLETE when their session's last was`, `${notComplete.length} of ${ids.length}`, '0 (FIFO per session)', false);
    }
  }
  return seconds;
}

/**
 * A backed-up session's queue drained: queues `count` Instant runs of one session behind a Sleep run
 * (not timed), then times from the Sleep's cancel until the last run is final. What the executor
 * alone costs per run, since no run request arrives meanwhile (only status polls).
 */
export async function timeQueueDrain(server: BenchServer, count: number): Promise<number> {
  const client = new KeepAliveClient(server.url);
  const api = '/api/v1/sessions/main/scenarios';
  try {
    const create = async (tag: string, algo: string, params: object = {}) =>
      (await client.request<Scenario>('POST', api, { tag, dataset_key: 'example', algo_name: algo, algo_params: params })).id;
    const blocker = await create('drain blocker', 'Sleep', { duration_ms: 600_000 });
    await client.request('POST', `${api}/${blocker}/run`);
    const ids: string[] = [];
    for (let k = 0; k < count; k++) ids.push(await create(`drained ${k}`, 'Instant'));
    for (const id of ids) await client.request('POST', `${api}/${id}/run`);
    const started = performance.now();
    await client.request('POST', `${api}/${blocker}/cancel`);
    for (;;) {
      const { status } = await client.request<Scenario>('GET', `${api}/${ids[ids.length - 1]}/status`);
      if (status === 'COMPLETE' || status === 'FAILED') break;
      await new Promise((r) => setTimeout(r, 2));
    }
    return (performance.now() - started) / 1000;
  } finally {
    client.close();
  }
}

/**
 * `count` run requests alone: creates `count` Instant scenarios in one session (not timed), then times
 * their `POST .../run`, one after another, against a server that runs nothing (`--workers 0`): what
 * the HTTP thread pays to queue a run.
 */
export async function timeRunRequests(server: BenchServer, count: number): Promise<number> {
  const client = new KeepAliveClient(server.url);
  try {
    const ids: string[] = [];
    for (let k = 0; k < count + 20; k++) {
      ids.push((await client.request<Scenario>('POST', '/api/v1/sessions/main/scenarios', { tag: `queued ${k}`, dataset_key: 'example', algo_name: 'Instant' })).id);
    }
    for (const id of ids.slice(0, 20)) await client.request('POST', `/api/v1/sessions/main/scenarios/${id}/run`);
    const started = performance.now();
    for (const id of ids.slice(20)) await client.request('POST', `/api/v1/sessions/main/scenarios/${id}/run`);
    return (performance.now() - started) / 1000;
  } finally {
    client.close();
  }
}

/** The floor: `count` sequential POSTs (or GETs) answered by a bare node:http server. */
export async function bareSequential(count: number, method: 'POST' | 'GET' = 'POST'): Promise<number> {
  const bare = await startBareNode();
  const client = new KeepAliveClient(bare.url);
  const body = method === 'POST' ? {} : undefined;
  try {
    for (let i = 0; i < 50; i++) await client.request(method, '/run', body);
    const started = performance.now();
    for (let i = 0; i < count; i++) await client.request(method, '/run', body);
    return (performance.now() - started) / 1000;
  } finally {
    client.close();
    await bare.stop();
  }
}

/** 1,000 sequential `GET /health` through the whole app (after 50 to warm up). */
export async function timeHealth(server: BenchServer): Promise<number> {
  const client = new KeepAliveClient(server.url);
  try {
    for (let i = 0; i < 50; i++) await client.request('GET', '/health');
    const started = performance.now();
    for (let i = 0; i < 1_000; i++) await client.request('GET', '/health');
    return (performance.now() - started) / 1000;
  } finally {
    client.close();
  }
}

/** 1,000 sequential scenario creates in one session, after `warmUp` untimed ones. */
async function timeCreatesAfter(server: BenchServer, warmUp: number): Promise<number> {
  const client = new KeepAliveClient(server.url);
  const create = (tag: string) => client.request('POST', '/api/v1/sessions/main/scenarios', { tag, dataset_key: 'example', algo_name: 'Instant' });
  try {
    for (let i = 0; i < warmUp; i++) await create(`warm ${i}`);
    const started = performance.now();
    for (let i = 0; i < 1_000; i++) await create(`create ${i}`);
    return (performance.now() - started) / 1000;
  } finally {
    client.close();
  }
}

/** 1,000 sequential scenario creates in one session (after 20 to warm up). */
export const timeCreates = (server: BenchServer) => timeCreatesAfter(server, 20);

/**
 * 1,000 sequential creates from a fresh server's first: what a client that starts a server and creates
 * at once sees, first-use costs (a route's schemas, the first statements) included.
 */
export const timeFreshCreates = (server: BenchServer) => timeCreatesAfter(server, 0);

/**
 * On PostgreSQL, an API node without workers beside 2 `scenarist worker` processes; runs one
 * Instant scenario through them first, so the timed runs do not wait for them to start.
 */
export async function withWorkerProcesses<T>(server: BenchServer, build: Build, databaseUrl: string, use: () => Promise<T>): Promise<T> {
  const workers = [1, 2].map(() =>
    spawn(process.execPath, [join(build.root, 'bin/scenarist.js'), 'worker', '--database-url', databaseUrl, '--concurrency', '1', '--log-level', 'warn'], {
      stdio: ['ignore', 'ignore', 'inherit'],
      env: { ...process.env, ...build.env },
    }),
  );
  try {
    const client = new KeepAliveClient(server.url);
    const { id } = await client.request<Scenario>('POST', '/api/v1/sessions/main/scenarios', { tag: 'warm-up', dataset_key: 'example', algo_name: 'Instant' });
    await client.request('POST', `/api/v1/sessions/main/scenarios/${id}/run`);
    while ((await client.request<Scenario>('GET', `/api/v1/sessions/main/scenarios/${id}/status`)).status !== 'COMPLETE') await new Promise((r) => setTimeout(r, 20));
    client.close();
    return await use();
  } finally {
    for (const worker of workers) worker.kill('SIGTERM');
    await Promise.all(workers.map((worker) => new Promise((r) => (worker.exitCode === null ? worker.once('exit', r) : r(undefined)))));
  }
}
