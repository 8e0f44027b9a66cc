/**
 * Acceptance gates (docs/api/gates.md), on SQLite and on PostgreSQL: a gate of 2 × 500 Instant runs,
 * from its create request until its verdict is read, against the same 1,000 Instant runs as one
 * experiment (created queued, until all are final). Budget: the gate within 2 × the experiment.
 * (PostgreSQL: 2 `scenarist worker` processes, as in experiments.bench.ts.)
 *
 * Run: npm run build && node --import tsx bench/gates.bench.ts [--dialect sqlite|postgres] [--database-url postgres://.../postgres]
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { adminDatabaseUrl, json, post, REPO_ROOT, report, startScenarist, withScratchDatabase, type BenchServer } from './support.js';

type Dialect = 'sqlite' | 'postgres';
const argument = (name: string) => {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? undefined : process.argv[at + 1];
};
const dialects: Dialect[] = argument('dialect') ? [argument('dialect') as Dialect] : ['sqlite', 'postgres'];
const RATIO_BUDGET = 2;
const API = '/api/v1/sessions/main';
const seconds = (from: bigint) => Number(process.hrtime.bigint() - from) / 1e9;
const pause = () => new Promise((r) => setTimeout(r, 10));

async function experimentSeconds(server: BenchServer, name: string): Promise<number> {
  const start = process.hrtime.bigint();
  const created = await json<{ id: string }>(post(`${server.url}${API}/experiments`, { name, algo_name: 'Instant', dataset_key: 'example', axes: { dataset_key: ['example'] }, repeats: 1_000, run: true }));
  for (;;) {
    const e = await json<{ counts: Record<string, number> }>(fetch(`${server.url}${API}/experiments/${created.id}`));
    if (e.counts.CREATED === 0 && e.counts.QUEUED === 0 && e.counts.PROCESSING === 0) return seconds(start);
    await pause();
  }
}

async function gateSeconds(server: BenchServer, name: string): Promise<number> {
  const start = process.hrtime.bigint();
  const side = { algo_name: 'Instant' };
  const created = await json<{ id: string }>(post(`${server.url}${API}/gates`, { name, baseline: side, candidate: side, inputs: { datasets: ['example'] }, repeats: 500 }));
  for (;;) {
    const g = await json<{ verdict: string | null }>(fetch(`${server.url}${API}/gates/${created.id}`));
    if (g.verdict !== null) return seconds(start);
    await pause();
  }
}

function startWorkers(databaseUrl: string, count: number): ChildProcess[] {
  return Array.from({ length: count }, () =>
    spawn(process.execPath, [join(REPO_ROOT, 'bin/scenarist.js'), 'worker', '--database-url', databaseUrl, '--log-level', 'warn'], { stdio: 'ignore' }),
  );
}

async function measure(dialect: Dialect, server: BenchServer): Promise<void> {
  // Warm both paths once (thread start, statement caches), then measure.
  await experimentSeconds(server, 'warm experiment');
  await gateSeconds(server, 'warm gate');
  const experiment = await experimentSeconds(server, 'experiment');
  const gate = await gateSeconds(server, 'gate');
  const ratio = gate / experiment;
  report(`${dialect}: 1,000 Instant runs as one experiment, until all final`, `${experiment.toFixed(3)} s`, 'baseline', true);
  report(`${dialect}: gate of 2 × 500 Instant runs, until its verdict`, `${gate.toFixed(3)} s (x${ratio.toFixed(2)} the experiment)`, `<= x${RATIO_BUDGET}`, ratio <= RATIO_BUDGET);
}

for (const dialect of dialects) {
  if (dialect === 'sqlite') {
    const server = await startScenarist(['--workers', '2']);
    try {
      await measure(dialect, server);
    } finally {
      await server.stop();
    }
  } else {
    await withScratchDatabase(adminDatabaseUrl(), async (url) => {
      const server = await startScenarist(['--database-url', url, '--workers', '0']);
      const workers = startWorkers(url, 2);
      try {
        await measure(dialect, server);
      } finally {
        for (const w of workers) w.kill('SIGTERM');
        await server.stop();
      }
    });
  }
}
