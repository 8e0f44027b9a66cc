import { spawn } from 'node:child_process';
import { createServer } from 'node:http';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import pg from 'pg';

/** Shared pieces of the benchmarks: the real server process, the bare baseline, and printing. */

export const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));

export interface BenchServer {
  readonly url: string;
  readonly pid: number;
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  await new Promise((r) => server.close(r));
  return port;
}

/**
 * Starts `scenarist serve` from dist/ (run `npm run build` first) on a fresh data directory. `root`
 * is the checkout whose `bin/` and `dist/` run (another build, to compare two versions in one run);
 * `env` is added to the process environment (a benchmark switching speed layers off).
 */
/** Node's own flags for every process a benchmark starts (`BENCH_NODE_FLAGS`, e.g. `--cpu-prof --cpu-prof-dir=...`). */
export const benchNodeFlags = (): string[] => (process.env.BENCH_NODE_FLAGS ?? '').split(' ').filter(Boolean);

export async function startScenarist(args: readonly string[] = [], root = REPO_ROOT, env: NodeJS.ProcessEnv = {}): Promise<BenchServer> {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'scenarist-bench-'));
  const child = spawn(
    process.execPath,
    [...benchNodeFlags(), join(root, 'bin/scenarist.js'), 'serve', '--port', String(port), '--data-dir', dataDir, '--log-level', 'warn', ...args],
    { stdio: ['ignore', 'ignore', 'inherit'], env: { ...process.env, ...env } },
  );
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`${url}/health`)).ok) break;
    } catch {
      if (i > 300) throw new Error('scenarist did not start');
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  return {
    url,
    pid: child.pid!,
    stop: async () => {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** The baseline: a plain node:http server answering a fixed JSON body, in its own process. */
export async function startBareNode(): Promise<BenchServer> {
  const port = await freePort();
  const code = `
    const body = JSON.stringify({ id: '00000000-0000-4000-8000-000000000000', tag: 'bench', status: 'PROCESSING', progress: 0.5 });
    require('node:http').createServer((req, res) => { res.writeHead(200, { 'content-type': 'application/json' }); res.end(body); })
      .listen(${port}, '127.0.0.1', () => process.send('ready'));`;
  const child = spawn(process.execPath, ['-e', code], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  await new Promise((r) => child.once('message', r));
  return {
    url: `http://127.0.0.1:${port}`,
    pid: child.pid!,
    stop: async () => {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    },
  };
}

export interface LoadResult {
  readonly requestsPerSecond: number;
  readonly p99Ms: number;
  readonly errors: number;
  readonly non2xx: number;
}

/** Drives a URL with autocannon (in this process) and returns its throughput and latency. */
export async function load(url: string, connections = 32, seconds = 5): Promise<LoadResult> {
  const result = await autocannon({ url, connections, duration: seconds });
  return {
    requestsPerSecond: result.requests.average,
    p99Ms: result.latency.p99,
    errors: result.errors,
    non2xx: result.non2xx,
  };
}

export async function json<T>(res: Response | Promise<Response>): Promise<T> {
  const r = await res;
  if (!r.ok) throw new Error(`${r.status} ${await r.text()}`);
  return (await r.json()) as T;
}

export function post(url: string, body: unknown): Promise<Response> {
  return fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
}

/** One printed line per figure: name, measured value, budget, verdict. */
export function report(name: string, value: string, budget: string, ok: boolean): void {
  console.log(`${ok ? 'PASS' : 'OVER'}  ${name.padEnd(48)} ${value.padStart(16)}   budget ${budget}`);
}

export function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return kb / 1024;
}

/** Runs `use` with the URL of a fresh PostgreSQL database, dropped afterwards. */
export async function withScratchDatabase<T>(adminUrl: string, use: (url: string) => Promise<T>): Promise<T> {
  const name = `scenarist_bench_${Date.now()}_${process.pid}`;
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  await client.query(`create database ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  try {
    return await use(url.href);
  } finally {
    await client.query(`drop database if exists ${name} with (force)`);
    await client.end();
  }
}

/** The `--database-url` argument of a benchmark, or the local PostgreSQL. */
export function adminDatabaseUrl(): string {
  const at = process.argv.indexOf('--database-url');
  return at === -1 ? 'postgres://postgres@127.0.0.1:5432/postgres' : process.argv[at + 1]!;
}

/** User + system CPU seconds a process (all its threads) has used so far, from /proc (Linux; USER_HZ 100). */
export function processCpuSeconds(pid: number): number {
  // The command name (field 2) may hold spaces: the fields are counted from the closing parenthesis.
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/**
 * CPU seconds (user and system, every thread) a process has used so far, from Linux's /proc, with
 * `children` those of its children it has reaped too; NaN where /proc is not there. A figure of work
 * done that the machine's load does not inflate, as it inflates wall time.
 */
export function cpuSecondsOf(pid: number, children = false): number {
  return cpuSecondsIn(`/proc/${pid}/stat`, children);
}

/** The CPU seconds of a process's main thread alone (its event loop), from /proc; NaN where not there. */
export function mainThreadCpuSecondsOf(pid: number): number {
  return cpuSecondsIn(`/proc/${pid}/task/${pid}/stat`, false);
}

function cpuSecondsIn(statFile: string, children: boolean): number {
  try {
    const fields = readFileSync(statFile, 'utf8').split(') ')[1]!.split(' ');
    const own = Number(fields[11]) + Number(fields[12]);
    return (children ? own + Number(fields[13]) + Number(fields[14]) : own) / CLOCK_TICKS;
  } catch {
    return Number.NaN;
  }
}

/**
 * The CPU seconds of the PostgreSQL server on this machine: every live server process, and the
 * backends that have exited (their time is the postmaster's reaped children's), from /proc; NaN where
 * it cannot be read.
 */
export function postgresCpuSeconds(): number {
  let total = 0;
  let found = false;
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    let command: string;
    try {
      command = readFileSync(`/proc/${entry}/cmdline`, 'latin1');
    } catch {
      continue;
    }
    const postmaster = /^\S*\/postgres\0/.test(command);
    if (!postmaster && !command.startsWith('postgres:')) continue;
    const seconds = cpuSecondsOf(Number(entry), postmaster);
    if (Number.isNaN(seconds)) continue;
    total += seconds;
    found = true;
  }
  return found ? total : Number.NaN;
}

/** Linux's USER_HZ, the unit of /proc's CPU times: 100 on every architecture Node.js supports. */
const CLOCK_TICKS = 100;
