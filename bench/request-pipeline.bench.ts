/**
 * What a request costs in the whole app (budget in docs/benchmarks.md): `GET /health` on SQLite, guards
 * on, under autocannon (32 connections), against a bare node:http server answering a fixed JSON body,
 * in alternating rounds; and the peak RSS of a server after the run benchmark's work on SQLite (1,000
 * Instant runs in one session, 200 over 20 sessions, 1,000 creates, a status poll under load).
 *
 * Run: npm run build && node --import tsx bench/request-pipeline.bench.ts [--rounds N] [--seconds S]
 *   [--only health|memory] [--baseline-root /path/to/other/build]
 */
import { readFileSync } from 'node:fs';
import { timeCreates, timeInstantRuns, type Build } from './run-figures.js';
import { json, load, post, REPO_ROOT, report, startBareNode, startScenarist, type BenchServer } from './support.js';

const argument = (name: string): string | undefined => {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? undefined : process.argv[at + 1];
};
const rounds = Number(argument('rounds') ?? 3);
const seconds = Number(argument('seconds') ?? 5);
const only = argument('only');
const builds: Build[] = [{ name: 'this build', root: REPO_ROOT }, ...(argument('baseline-root') ? [{ name: 'baseline', root: argument('baseline-root')! }] : [])];

/** `GET /health` whole app: its cost per request may be at most this multiple of the bare server's. */
const HEALTH_BUDGET = 1.3;
/** Peak RSS after the run benchmark's work on SQLite (the original: 105 MB). */
const PEAK_RSS_BUDGET_MB = 160;

const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function withServer<T>(build: Build, args: readonly string[], use: (server: BenchServer) => Promise<T>): Promise<T> {
  const server = await startScenarist(args, build.root, build.env);
  try {
    return await use(server);
  } finally {
    await server.stop();
  }
}

async function requestsPerSecond(url: string): Promise<number> {
  // A short warm-up: the first requests compile the route's schemas.
  await load(url, 32, 1);
  const result = await load(url, 32, seconds);
  if (result.errors > 0 || result.non2xx > 0) throw new Error(`${url}: ${result.errors} errors, ${result.non2xx} non-2xx`);
  return result.requestsPerSecond;
}

/** Peak resident set (VmHWM) of a process, in MB. */
function peakRssMb(pid: number): number {
  const kb = Number(/VmHWM:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
  return kb / 1024;
}

async function runBenchmarkWork(server: BenchServer): Promise<void> {
  await timeInstantRuns(server, 1, 1_000);
  await timeInstantRuns(server, 20, 10, undefined, 'drain');
  await timeCreates(server);
  const base = `${server.url}/api/v1/sessions/main`;
  const { id } = await json<{ id: string }>(post(`${base}/scenarios`, { tag: 'polled', dataset_key: 'example', algo_name: 'Instant' }));
  await load(`${base}/scenarios/${id}/status`, 32, seconds);
}

if (only !== 'memory') {
  const bare: number[] = [];
  const app = new Map<string, number[]>(builds.map((b) => [b.name, []]));
  for (let round = 0; round < rounds; round++) {
    const floor = await startBareNode();
    try {
      bare.push(await requestsPerSecond(floor.url));
    } finally {
      await floor.stop();
    }
    for (const build of builds) app.get(build.name)!.push(await withServer(build, [], (s) => requestsPerSecond(`${s.url}/health`)));
  }
  const floor = median(bare);
  report('bare node:http, 32 connections', `${Math.round(floor)} req/s`, `floor (${rounds} rounds: ${bare.map(Math.round).join(', ')})`, true);
  for (const build of builds) {
    const figures = app.get(build.name)!;
    const ratio = floor / median(figures);
    report(`GET /health, whole app (${build.name})`, `x${ratio.toFixed(2)}`, `<= ${HEALTH_BUDGET} x bare; ${figures.map(Math.round).join(', ')} req/s`, ratio <= HEALTH_BUDGET);
  }
}

if (only !== 'health') {
  for (const build of builds) {
    const peaks: number[] = [];
    for (let round = 0; round < Math.min(rounds, 2); round++) {
      peaks.push(await withServer(build, ['--workers', '2'], async (s) => (await runBenchmarkWork(s), peakRssMb(s.pid))));
    }
    const peak = Math.max(...peaks);
    report(`peak RSS after the run work, SQLite (${build.name})`, `${peak.toFixed(0)} MB`, `<= ${PEAK_RSS_BUDGET_MB} MB (original 105 MB); ${peaks.map((p) => p.toFixed(0)).join(', ')} MB`, peak <= PEAK_RSS_BUDGET_MB);
  }
}
