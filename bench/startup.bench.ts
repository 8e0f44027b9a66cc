/**
 * Start-up (budget in docs/benchmarks.md): from spawning `scenarist serve` on a fresh data directory
 * (SQLite, created and migrated by that start) to its first `GET /health` answered 200, beside a bare
 * node:http server spawned and polled the same way, in alternating rounds. Each figure is the median of
 * the rounds; the CPU time the server process used until that first answer (user + system, from
 * /proc) is printed beside it, since it moves less than wall time on a machine others share, and its
 * resident memory then.
 *
 * Run: npm run build && node --import tsx bench/startup.bench.ts [--rounds N] [--baseline-root /path/to/other/build]
 * With `--baseline-root` that build (its `bin/` and `dist/`) starts in the same rounds, so a change can
 * be compared on a noisy machine.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, REPO_ROOT, report, rssMb } from './support.js';

const argument = (name: string): string | undefined => {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? undefined : process.argv[at + 1];
};
const rounds = Number(argument('rounds') ?? 7);
const baselineRoot = argument('baseline-root');
/** How often a starting server is asked, alike for both: often enough that polling adds little. */
const POLL_MS = 5;
/** Clock ticks per second of /proc/<pid>/stat's CPU times (USER_HZ, 100 on Linux). */
const TICKS_PER_SECOND = 100;

interface Start {
  readonly seconds: number;
  readonly cpuSeconds: number;
  /** Resident memory at that first answer, in MB. */
  readonly rssMb: number;
}

/** User + system CPU seconds a process has used so far. */
function cpuSeconds(pid: number): number {
  // The command name (field 2) may hold spaces: the fields counted from the closing parenthesis.
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_SECOND;
}

/** Spawns `args`, polls `GET /health` on `port` every POLL_MS until a 200, then stops the process. */
async function timeStart(args: readonly string[], port: number): Promise<Start> {
  const started = performance.now();
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'inherit'] });
  const exited = new Promise((resolve) => child.once('exit', resolve));
  try {
    for (;;) {
      try {
        const res = await fetch(`http://127.0.0.1:${port}/health`);
        if (res.status === 200) break;
      } catch {
        // Not listening yet.
      }
      if (child.exitCode !== null) throw new Error(`${args.join(' ')} exited with ${child.exitCode}`);
      await new Promise((r) => setTimeout(r, POLL_MS));
    }
    return { seconds: (performance.now() - started) / 1000, cpuSeconds: cpuSeconds(child.pid!), rssMb: rssMb(child.pid!) };
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}

async function startScenarist(root: string): Promise<Start> {
  const port = await freePort();
  const dataDir = mkdtempSync(join(tmpdir(), 'scenarist-startup-'));
  try {
    return await timeStart([join(root, 'bin/scenarist.js'), 'serve', '--port', String(port), '--data-dir', dataDir, '--log-level', 'warn'], port);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

async function startBare(): Promise<Start> {
  const port = await freePort();
  const code = `require('node:http').createServer((req, res) => { res.writeHead(200, { 'content-type': 'application/json' }); res.end('{"status":"ok"}'); }).listen(${port}, '127.0.0.1');`;
  return timeStart(['-e', code], port);
}

const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const range = (values: readonly number[]) => `${Math.min(...values).toFixed(3)}-${Math.max(...values).toFixed(3)}`;

const builds = [{ name: 'this build', root: REPO_ROOT }, ...(baselineRoot ? [{ name: 'baseline', root: baselineRoot }] : [])];
const bare: Start[] = [];
const byBuild = new Map<string, Start[]>(builds.map((b) => [b.name, []]));
for (let round = 0; round < rounds; round++) {
  bare.push(await startBare());
  for (const build of builds) byBuild.get(build.name)!.push(await startScenarist(build.root));
}
const floor = median(bare.map((s) => s.seconds));
report('bare node:http start to first 200', `${floor.toFixed(3)} s`, `floor (${rounds} rounds, ${range(bare.map((s) => s.seconds))} s)`, true);
for (const build of builds) {
  const starts = byBuild.get(build.name)!;
  const seconds = median(starts.map((s) => s.seconds));
  const ratio = seconds / floor;
  const cpu = median(starts.map((s) => s.cpuSeconds));
  const rss = median(starts.map((s) => s.rssMb));
  report(
    `serve start to first /health 200 (${build.name})`,
    `x${ratio.toFixed(1)}`,
    `<= 2.5 x bare and <= 0.4 s; ${seconds.toFixed(3)} s (${range(starts.map((s) => s.seconds))}), CPU ${cpu.toFixed(2)} s, RSS ${rss.toFixed(0)} MB`,
    ratio <= 2.5 && seconds <= 0.4,
  );
}
