/**
 * The domain author's loop: how long after a save `scenarist dev` serves the changed example domain
 * (budget ≤ 1 s). Timed from the write of the file until the reloaded server answers `/health`, for
 * saves in place and through a temp file renamed over the original; beside it, the cold start of a
 * bare node:http process measured in the same run (the floor any restart pays).
 *
 * The budgeted saves come after an author's pause (AUTHOR_PAUSE_MS): by then the reloaded server has
 * compiled its schemas and the next spare server has loaded its modules, as they do while a person
 * edits. Saves made back to back, before that work is done, are timed too and printed for information.
 * Run: npm run build && node --import tsx bench/dev-reload.bench.ts
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { REPO_ROOT, report, startBareNode } from './support.js';

const SAVES = 6;
const BACK_TO_BACK_SAVES = 4;
/** Between budgeted saves: the time the reload's idle work needs on a 2-core machine, and less than a person takes to edit. */
const AUTHOR_PAUSE_MS = 3_000;
/** A file of the example domain that its entry module imports (a save there changes what runs). */
const SAVED_FILE = join(REPO_ROOT, 'examples/warehouse/random.ts');

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/** Waits until `child` has printed `count` lines matching `pattern`; answers when, in ms. */
function waitForLines(output: () => string, pattern: RegExp, count: number, deadlineMs: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const deadline = Date.now() + deadlineMs;
    const look = () => {
      if ((output().match(pattern) ?? []).length >= count) return resolve(performance.now());
      if (Date.now() > deadline) return reject(new Error(`no ${pattern} after ${deadlineMs} ms:\n${output().slice(-2_000)}`));
      setTimeout(look, 5);
    };
    look();
  });
}

async function bareColdStart(): Promise<number> {
  const started = performance.now();
  const bare = await startBareNode();
  const ms = performance.now() - started;
  await bare.stop();
  return ms;
}

const original = readFileSync(SAVED_FILE, 'utf8');
const dataDir = mkdtempSync(join(tmpdir(), 'scenarist-dev-bench-'));
let dev: ChildProcess | undefined;
try {
  const port = 18_000 + Math.floor(Math.random() * 2_000);
  dev = spawn(process.execPath, [join(REPO_ROOT, 'bin/scenarist.js'), 'dev', '--domain', join(REPO_ROOT, 'examples/warehouse/index.ts'), '--port', String(port), '--data-dir', dataDir, '--log-level', 'warn'], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  dev.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  dev.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const reloaded = /reloaded in \d+ ms/g;
  for (let i = 0; ; i++) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/health`)).ok) break;
    } catch {
      if (i > 600) throw new Error(`scenarist dev did not start:\n${output}`);
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  // Saves count once the watcher is ready (it says so).
  await waitForLines(() => output, /watching .* for changes/g, 1, 60_000);
  const inPlace: number[] = [];
  const renamed: number[] = [];
  const backToBack: number[] = [];
  for (let save = 1; save <= SAVES + BACK_TO_BACK_SAVES; save++) {
    if (save <= SAVES) await new Promise((r) => setTimeout(r, AUTHOR_PAUSE_MS));
    const text = `${original}\n// bench save ${save}\n`;
    const started = performance.now();
    if (save % 2 === 0) {
      const temp = join(REPO_ROOT, 'examples/warehouse/.random.ts.swp');
      writeFileSync(temp, text);
      renameSync(temp, SAVED_FILE);
    } else {
      writeFileSync(SAVED_FILE, text);
    }
    await waitForLines(() => output, reloaded, save, 30_000);
    const ms = performance.now() - started;
    if (save > SAVES) backToBack.push(ms);
    else (save % 2 === 0 ? renamed : inPlace).push(ms);
  }
  const reported = [...output.matchAll(/reloaded in (\d+) ms/g)].map((m) => Number(m[1])).slice(0, SAVES);
  const bare = median(await Promise.all([bareColdStart(), bareColdStart(), bareColdStart()]));
  report('bare node:http process, cold start to listening', `${bare.toFixed(0)} ms`, 'floor', true);
  report('dev reload after a save in place, median', `${median(inPlace).toFixed(0)} ms`, '<= 1000 ms', median(inPlace) <= 1_000);
  report('dev reload after a temp file renamed over it, median', `${median(renamed).toFixed(0)} ms`, '<= 1000 ms', median(renamed) <= 1_000);
  report('  of which the supervisor reports', `${median(reported).toFixed(0)} ms`, 'from the watcher seeing the save to serving', true);
  const phases = [...output.matchAll(/type-check (\d+) ms, domain load (\d+) ms more, server stop (\d+) ms, server start (\d+) ms/g)].map((m) => m.slice(1).map(Number)).slice(0, SAVES);
  for (const [at, name] of ['type-check', 'domain load (beyond the type-check)', 'server stop', 'server start'].entries()) {
    report(`    ${name}, median`, `${median(phases.map((p) => p[at]!)).toFixed(0)} ms`, '', true);
  }
  report('dev reload, saves back to back (no pause), median', `${median(backToBack).toFixed(0)} ms`, 'for information', true);
} finally {
  writeFileSync(SAVED_FILE, original);
  dev?.kill('SIGTERM');
  if (dev && dev.exitCode === null) await new Promise((r) => dev!.once('exit', r));
  rmSync(dataDir, { recursive: true, force: true });
}
