/**
 * Speed of many small runs (budgets in docs/benchmarks.md), on SQLite and on PostgreSQL, each as a
 * multiple of the bare node:http floor for the same number of sequential requests, measured in the
 * same round:
 *  - 1,000 GET /health through the whole app (guards on);
 *  - 1,000 Instant runs in one session, until all are final (PostgreSQL: an API node and 2 worker
 *    processes);
 *  - 200 Instant runs over 20 sessions, drained;
 *  - 1,000 sequential creates (PostgreSQL);
 *  - from-json of 1M rows against 100k rows (time ratio);
 *  - ETL of a 10k-row CSV (median of 12, warm).
 * Each run figure is measured from the first `POST .../run` until every run is final (creating the
 * scenarios is excluded) and printed beside the time a bare node:http server takes to answer the same
 * number of sequential requests: the floor set by the client and loopback alone.
 *
 * Run: npm run build && node --import tsx bench/many-runs.bench.ts [--database-url postgres://.../postgres]
 *   [--dialect sqlite|postgres] [--only runs|data] [--repeat N] [--baseline-root /path/to/other/build]
 *   [--scrape-metrics FILE]
 * `--scrape-metrics` writes one `GET /metrics` taken while the first timed runs are queued (the example
 * in docs/operations.md).
 * With `--baseline-root` the same figures of that build (its `bin/` and `dist/`) are measured in the
 * same run, alternating with this one's, so a change can be compared on a noisy machine.
 */
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { generateWarehouse } from '../examples/warehouse/generate-samples.js';
import { KeepAliveClient } from './keep-alive-client.js';
import { adminDatabaseUrl, json, post, REPO_ROOT, report, startBareNode, startScenarist, withScratchDatabase, type BenchServer } from './support.js';

type Dialect = 'sqlite' | 'postgres';

const argument = (name: string): string | undefined => {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? undefined : process.argv[at + 1];
};

const dialects: Dialect[] = argument('dialect') ? [argument('dialect') as Dialect] : ['sqlite', 'postgres'];
const only = argument('only');
let scrapeTo = argument('scrape-metrics');
const repeat = Number(argument('repeat') ?? 1);
const builds: { name: string; root: string }[] = [
  { name: 'this build', root: REPO_ROOT },
  ...(argument('baseline-root') ? [{ name: 'baseline', root: argument('baseline-root')! }] : []),
];

/** Budgets as multiples of the bare floor (the original's own multiples in brackets, where measured). */
const RATIO_BUDGETS = {
  health: 1.5,
  oneSession: { sqlite: 3, postgres: 8, original: '3.5' },
  drain: { sqlite: 3, postgres: 10, original: '3.4' },
  creates: { sqlite: Infinity, postgres: 4, original: '3.3' },
};

/** A server of `build` on `dialect`, with a scratch PostgreSQL database when needed. */
async function withServer<T>(dialect: Dialect, root: string, args: readonly string[], use: (server: BenchServer, databaseUrl?: string) => Promise<T>): Promise<T> {
  const run = async (databaseUrl?: string) => {
    const server = await startScenarist([...args, ...(databaseUrl ? ['--database-url', databaseUrl] : [])], root);
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
 */
async function timeInstantRuns(server: BenchServer, sessions: number, perSession: number): Promise<number> {
  const base = `${server.url}/api/v1`;
  const example = await (await fetch(`${base}/sessions/main/data/example`)).text();
  const bySession: { api: string; ids: string[] }[] = [];
  for (let s = 0; s < sessions; s++) {
    const name = `runs-${s}`;
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
  if (scrapeTo !== undefined) {
    // Once, mid-run: the queue is full and the workers busy. Not timed apart: it is one request.
    writeFileSync(scrapeTo, await (await fetch(`${server.url}/metrics`)).text());
    scrapeTo = undefined;
  }
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

/** The floor: `count` sequential POSTs (or GETs) answered by a bare node:http server. */
async function bareSequential(count: number, method: 'POST' | 'GET' = 'POST'): Promise<number> {
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
async function timeHealth(server: BenchServer): Promise<number> {
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

/** 1,000 sequential scenario creates in one session (after 20 to warm up). */
async function timeCreates(server: BenchServer): Promise<number> {
  const client = new KeepAliveClient(server.url);
  try {
    for (let i = 0; i < 20; i++) await client.request('POST', '/api/v1/sessions/main/scenarios', { tag: `warm ${i}`, dataset_key: 'example', algo_name: 'Instant' });
    const started = performance.now();
    for (let i = 0; i < 1_000; i++) await client.request('POST', '/api/v1/sessions/main/scenarios', { tag: `create ${i}`, dataset_key: 'example', algo_name: 'Instant' });
    return (performance.now() - started) / 1000;
  } finally {
    client.close();
  }
}

/**
 * On PostgreSQL, an API node without workers beside 2 `scenarist worker` processes; runs one
 * Instant scenario through them first, so the timed runs do not wait for them to start.
 */
async function withWorkerProcesses<T>(server: BenchServer, root: string, databaseUrl: string, use: () => Promise<T>): Promise<T> {
  const workers = [1, 2].map(() =>
    spawn(process.execPath, [join(root, 'bin/scenarist.js'), 'worker', '--database-url', databaseUrl, '--concurrency', '1', '--log-level', 'warn'], { stdio: ['ignore', 'ignore', 'inherit'] }),
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

/** Prints a figure as its multiple of the floor, against a budget in multiples. */
function reportRatio(name: string, seconds: number, floor: number, budget: number, original?: string): void {
  const ratio = seconds / floor;
  const budgetText = Number.isFinite(budget) ? `<= ${budget} x bare` : 'no budget';
  report(name, `x${ratio.toFixed(1)}`, `${budgetText}${original ? ` (original x${original})` : ''}; ${seconds.toFixed(2)} s vs ${floor.toFixed(2)} s bare`, ratio <= budget);
}

function form(datasetName: string, files: Record<string, string>): FormData {
  const body = new FormData();
  body.append('dataset_name', datasetName);
  for (const [name, content] of Object.entries(files)) body.append('files', new Blob([content]), name);
  return body;
}

async function etl(server: BenchServer, body: FormData): Promise<number> {
  const started = performance.now();
  const res = await fetch(`${server.url}/api/v1/sessions/main/etl`, { method: 'POST', body });
  const result = (await res.json()) as { success?: boolean };
  if (result.success !== true) throw new Error(`ETL failed: ${JSON.stringify(result).slice(0, 300)}`);
  return performance.now() - started;
}

/** from-json of 100k and 1M rows: the time ratio (linear is x10). */
async function fromJsonRatio(server: BenchServer): Promise<{ small: number; large: number }> {
  const base = `${server.url}/api/v1/sessions/main`;
  const times: number[] = [];
  for (const rows of [100_000, 1_000_000]) {
    const { skuCsv, layoutCsv } = generateWarehouse({ skus: rows, locations: 1_000, seed: 7 });
    await etl(server, form(`rows-${rows}`, { 'sku_data.csv': skuCsv, 'warehouse_layout.csv': layoutCsv }));
    const body = (await (await fetch(`${base}/data/rows-${rows}`)).text()).replace(`"key":"rows-${rows}"`, `"key":"copy-${rows}"`);
    const started = performance.now();
    const res = await fetch(`${base}/data/from-json`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
    if (res.status !== 201) throw new Error(`from-json: ${res.status} ${await res.text()}`);
    times.push(performance.now() - started);
  }
  return { small: times[0]!, large: times[1]! };
}

async function smallEtlMedian(server: BenchServer): Promise<number> {
  const { skuCsv, layoutCsv } = generateWarehouse({ skus: 10_000, locations: 200, seed: 3 });
  const times: number[] = [];
  for (let i = 0; i < 15; i++) times.push(await etl(server, form('small', { 'sku_data.csv': skuCsv, 'warehouse_layout.csv': layoutCsv })));
  const warm = times.slice(3).sort((a, b) => a - b);
  return warm[Math.floor(warm.length / 2)]! / 1000;
}

const BIG_BODY = ['--body-limit', '1GiB', '--upload-limit', '1GiB'];

for (let round = 1; round <= repeat; round++) {
  if (repeat > 1) console.log(`-- round ${round} of ${repeat}`);
  const floor = { gets: 0, posts: 0, posts200: 0 };
  if (only !== 'data') {
    floor.gets = await bareSequential(1_000, 'GET');
    floor.posts = await bareSequential(1_000);
    floor.posts200 = await bareSequential(200);
    report('bare node:http, 1,000 sequential GETs', `${floor.gets.toFixed(2)} s`, 'floor (client + loopback)', true);
    report('bare node:http, 1,000 sequential POSTs', `${floor.posts.toFixed(2)} s`, 'floor (client + loopback)', true);
    report('bare node:http, 200 sequential POSTs', `${floor.posts200.toFixed(2)} s`, 'floor', true);
  }
  for (const dialect of dialects) {
    for (const build of builds) {
      const label = `${dialect}${builds.length > 1 ? `, ${build.name}` : ''}`;
      if (only !== 'data') {
        const health = await withServer(dialect, build.root, [], timeHealth);
        reportRatio(`1,000 GET /health, whole app (${label})`, health, floor.gets, RATIO_BUDGETS.health);
        const one =
          dialect === 'postgres'
            ? await withServer(dialect, build.root, ['--workers', '0'], (s, url) => withWorkerProcesses(s, build.root, url!, () => timeInstantRuns(s, 1, 1_000)))
            : await withServer(dialect, build.root, ['--workers', '2'], (s) => timeInstantRuns(s, 1, 1_000));
        const where = dialect === 'postgres' ? ', 2 worker processes' : '';
        reportRatio(`1,000 Instant runs, one session (${label}${where})`, one, floor.posts, RATIO_BUDGETS.oneSession[dialect], RATIO_BUDGETS.oneSession.original);
        const drain = await withServer(dialect, build.root, ['--workers', '2'], (s) => timeInstantRuns(s, 20, 10));
        reportRatio(`200 Instant runs, 20 sessions (${label})`, drain, floor.posts200, RATIO_BUDGETS.drain[dialect], RATIO_BUDGETS.drain.original);
        const creates = await withServer(dialect, build.root, [], timeCreates);
        reportRatio(`1,000 creates, sequential (${label})`, creates, floor.posts, RATIO_BUDGETS.creates[dialect], RATIO_BUDGETS.creates.original);
      }
      if (only !== 'runs') {
        const { small, large } = await withServer(dialect, build.root, BIG_BODY, fromJsonRatio);
        const ratio = large / small;
        report(`from-json 1M / 100k rows (${label})`, `x${ratio.toFixed(2)}`, `<= x10.5 (${(small / 1000).toFixed(2)} s, ${(large / 1000).toFixed(2)} s)`, ratio <= 10.5);
        const median = await withServer(dialect, build.root, [], smallEtlMedian);
        report(`ETL 10k-row CSV, median of 12 (${label})`, `${median.toFixed(3)} s`, '<= 0.04 s (original 0.063 s)', median <= 0.04);
      }
    }
  }
}
