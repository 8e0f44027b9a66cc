/**
 * Statements and round trips per run on PostgreSQL, counted at the wire (bench/pg-wire-counter.ts):
 * an API node without workers and one `scenarist worker` process, each connected through its own
 * counting proxy, 100 Instant runs at a time:
 *  - the API node's statements per run request (single run requests, one after another);
 *  - the worker's per run, from the moment the runs are queued until all are final, for two shapes:
 *    all in one session queued by one batch request (a job goes on with its session's next run), and
 *    one run in each of 100 sessions (every run a graphile-worker job of its own).
 * Each includes the background work of its time (the reaper's look each second, graphile's poll),
 * which the by-kind listing (`--kinds`) shows apart.
 *
 * With `--times`, where each shape's time per run goes: its wall time per run, the time each process
 * waited for the database (from a round trip's last message to its `ReadyForQuery`, at the proxy),
 * by statement kind, beside a flushed commit and an unflushed one of a one-row INSERT measured in
 * the same run (the floor of any statement that commits).
 *
 * Run: npm run build && node --import tsx bench/pg-statements.bench.ts [--database-url postgres://.../postgres]
 *   [--root /path/to/other/build] [--runs N] [--kinds] [--times]
 */
import { spawn, type ChildProcess } from 'node:child_process';
import pg from 'pg';
import { join } from 'node:path';
import { KeepAliveClient } from './keep-alive-client.js';
import { PgWireCounter, type WireCounts } from './pg-wire-counter.js';
import { REPO_ROOT, adminDatabaseUrl, startScenarist, withScratchDatabase } from './support.js';

const argument = (name: string): string | undefined => {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? undefined : process.argv[at + 1];
};
const root = argument('root') ?? REPO_ROOT;
const runs = Number(argument('runs') ?? 100);
const showKinds = process.argv.includes('--kinds');
const showTimes = process.argv.includes('--times');

interface Scenario {
  readonly id: string;
  readonly status: string;
}

const API = '/api/v1/sessions';

function startWorker(databaseUrl: string): ChildProcess {
  return spawn(process.execPath, [join(root, 'bin/scenarist.js'), 'worker', '--database-url', databaseUrl, '--concurrency', '1', '--log-level', 'warn'], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
}

async function stopWorker(worker: ChildProcess): Promise<void> {
  worker.kill('SIGTERM');
  await new Promise((resolve) => (worker.exitCode === null ? worker.once('exit', resolve) : resolve(undefined)));
}

/** `count` Instant scenarios spread over `sessions` sessions (each given the example dataset); not counted. */
async function createScenarios(client: KeepAliveClient, sessions: number, count: number): Promise<{ session: string; id: string }[]> {
  const example = await client.request<unknown>('GET', `${API}/main/data/example`);
  const made: { session: string; id: string }[] = [];
  for (let s = 0; s < sessions; s++) {
    const name = `count-${Date.now()}-${s}`;
    const list = await client.request<{ sessions: { id: string; display_name: string }[] }>('POST', API, { display_name: name });
    const session = list.sessions.find((x) => x.display_name === name)!.id;
    await client.request('POST', `${API}/${session}/data/from-json`, example);
    for (let k = s; k < count; k += sessions) {
      made.push({ session, id: (await client.request<Scenario>('POST', `${API}/${session}/scenarios`, { tag: `run ${k}`, dataset_key: 'example', algo_name: 'Instant' })).id });
    }
  }
  return made;
}

async function untilFinal(client: KeepAliveClient, scenarios: readonly { session: string; id: string }[]): Promise<void> {
  for (const { session, id } of scenarios) {
    for (;;) {
      const { status } = await client.request<Scenario>('GET', `${API}/${session}/scenarios/${id}/status`);
      if (status === 'COMPLETE') break;
      if (status === 'FAILED') throw new Error(`run ${id} FAILED`);
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  }
}

function print(label: string, counts: WireCounts, per: number, wallMs?: number): void {
  console.log(`${label.padEnd(58)} ${(counts.statements / per).toFixed(2).padStart(7)} statements ${(counts.roundTrips / per).toFixed(2).padStart(7)} round trips per run`);
  if (showTimes) {
    const wall = wallMs === undefined ? '' : `wall ${(wallMs / per).toFixed(2)} ms per run; `;
    console.log(`    ${wall}waited for the database ${(counts.waitMs / per).toFixed(2)} ms per run (ms per run, per statement, statements per run):`);
    for (const [text, ms] of [...counts.msByText].sort((a, b) => b[1] - a[1])) {
      const n = counts.byText.get(text) ?? 1;
      console.log(`    ${(ms / per).toFixed(3).padStart(7)} ${(ms / n).toFixed(3).padStart(7)} ${(n / per).toFixed(2).padStart(5)}  ${text}`);
    }
  }
  if (!showKinds) return;
  for (const [text, n] of [...counts.byText].sort((a, b) => b[1] - a[1])) console.log(`    ${(n / per).toFixed(2).padStart(6)}  ${text}`);
}

/** The median time of a one-row INSERT committed on its own, flushed (`synchronous_commit` on) or not. */
async function commitFloor(databaseUrl: string, flushed: boolean): Promise<number> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    await client.query('create temporary table commit_floor (n int)');
    await client.query(`set synchronous_commit = ${flushed ? 'on' : 'off'}`);
    const times: number[] = [];
    for (let i = 0; i < 200; i++) {
      const started = performance.now();
      await client.query({ name: 'commit-floor', text: 'insert into commit_floor values ($1)', values: [i] });
      times.push(performance.now() - started);
    }
    return times.sort((a, b) => a - b)[100]!;
  } finally {
    await client.end();
  }
}

/** The API node's statements per run request: `runs` single run requests, one after another. */
async function measureRequests(client: KeepAliveClient, api: PgWireCounter): Promise<void> {
  const scenarios = await createScenarios(client, 1, runs);
  api.take();
  const started = performance.now();
  for (const { session, id } of scenarios) await client.request('POST', `${API}/${session}/scenarios/${id}/run`);
  print('run request (POST .../run), API node', api.take(), runs, performance.now() - started);
  await untilFinal(client, scenarios);
}

/**
 * The worker's statements per run, from the moment all `runs` are queued until all are final: in one
 * session, queued by one batch request (the worker's one job goes on with the session's next runs), or
 * over `runs` sessions of one run each (a job per run).
 */
async function measureWorker(client: KeepAliveClient, worker: PgWireCounter, sessions: number): Promise<void> {
  const scenarios = await createScenarios(client, sessions, runs);
  worker.take();
  const started = performance.now();
  if (sessions === 1) {
    await client.request('POST', `${API}/${scenarios[0]!.session}/scenarios:run`, { ids: scenarios.map((s) => s.id) });
  } else {
    for (const { session, id } of scenarios) await client.request('POST', `${API}/${session}/scenarios/${id}/run`);
  }
  await untilFinal(client, scenarios);
  const shape = sessions === 1 ? `${runs} runs queued at once in one session` : `${runs} runs over ${sessions} sessions`;
  print(`claim to complete, worker process [${shape}]`, worker.take(), runs, performance.now() - started);
}

await withScratchDatabase(adminDatabaseUrl(), async (databaseUrl) => {
  const target = new URL(databaseUrl);
  const api = new PgWireCounter({ host: target.hostname, port: Number(target.port || 5432) });
  const worker = new PgWireCounter({ host: target.hostname, port: Number(target.port || 5432) });
  await api.start();
  await worker.start();
  const server = await startScenarist(['--database-url', api.url(databaseUrl), '--workers', '0'], root);
  const workerProcess = startWorker(worker.url(databaseUrl));
  try {
    // Warm: every statement of a run prepared on each connection that makes it (see named-statements.ts).
    const warm = new KeepAliveClient(server.url);
    const warmUp = await createScenarios(warm, 1, 6);
    for (const { session, id } of warmUp) await warm.request('POST', `${API}/${session}/scenarios/${id}/run`);
    await untilFinal(warm, warmUp);
    warm.close();
    if (showTimes) {
      const [flushed, unflushed] = [await commitFloor(databaseUrl, true), await commitFloor(databaseUrl, false)];
      console.log(`a one-row INSERT committed alone (median of 200): flushed ${flushed.toFixed(3)} ms, unflushed ${unflushed.toFixed(3)} ms`);
    }
    const client = new KeepAliveClient(server.url);
    try {
      await measureRequests(client, api);
      await measureWorker(client, worker, 1);
      await measureWorker(client, worker, runs);
    } finally {
      client.close();
    }
  } finally {
    await stopWorker(workerProcess);
    await server.stop();
    await api.stop();
    await worker.stop();
  }
});
