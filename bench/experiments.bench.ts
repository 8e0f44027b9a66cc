/**
 * Experiments (docs/api/experiments.md), on SQLite and on PostgreSQL, each figure beside the bare
 * floor (a plain node:http server answering the same number of sequential requests) as a ratio:
 *  - create a 1,000-scenario experiment, queued, in one request;
 *  - 1,000 Instant runs of one experiment until all are final (PostgreSQL: 2 `scenarist worker` processes);
 *  - the summary (GET .../experiments/{eid}) of a 10,000-scenario experiment, all COMPLETE: computed (the
 *    first read after the last run), and kept (the median of 5 reads after);
 *  - its results CSV streamed, with the server's RSS growth while it streams.
 *
 * Run: npm run build && node --import tsx bench/experiments.bench.ts [--dialect sqlite|postgres] [--database-url postgres://.../postgres]
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { adminDatabaseUrl, json, post, REPO_ROOT, report, rssMb, startBareNode, startScenarist, withScratchDatabase, type BenchServer } from './support.js';

type Dialect = 'sqlite' | 'postgres';
const argument = (name: string) => {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? undefined : process.argv[at + 1];
};
const dialects: Dialect[] = argument('dialect') ? [argument('dialect') as Dialect] : ['sqlite', 'postgres'];
const BUDGETS = { create: { sqlite: 0.2, postgres: 0.5 }, runs: { sqlite: 0.5, postgres: 1.5 }, summaryMs: 100, heapMb: 30 };

const API = '/api/v1/sessions/main';
const seconds = (from: bigint) => Number(process.hrtime.bigint() - from) / 1e9;

/** The floor: `count` sequential requests to a bare node:http server. */
async function floor(count: number): Promise<number> {
  const bare = await startBareNode();
  const start = process.hrtime.bigint();
  for (let i = 0; i < count; i++) await (await fetch(bare.url)).text();
  const took = seconds(start);
  await bare.stop();
  return took;
}

const sweep = (name: string, steps: number, run: boolean) => ({
  name,
  algo_name: 'Instant',
  dataset_key: 'example',
  axes: { dataset_key: ['example'] },
  repeats: steps,
  run,
});

/**
 * Polls the experiment until every scenario is final; returns how long the last read took, ms. That
 * read is the first to see the last runs COMPLETE, so it computes the summary anew.
 */
async function waitAllFinal(server: BenchServer, id: string): Promise<number> {
  for (;;) {
    const start = process.hrtime.bigint();
    const e = await json<{ counts: Record<string, number> }>(fetch(`${server.url}${API}/experiments/${id}`));
    if (e.counts.CREATED === 0 && e.counts.QUEUED === 0 && e.counts.PROCESSING === 0) return seconds(start) * 1000;
    await new Promise((r) => setTimeout(r, 10));
  }
}

function startWorkers(databaseUrl: string, count: number): ChildProcess[] {
  return Array.from({ length: count }, () =>
    spawn(process.execPath, [join(REPO_ROOT, 'bin/scenarist.js'), 'worker', '--database-url', databaseUrl, '--log-level', 'warn'], { stdio: 'ignore' }),
  );
}

async function measure(dialect: Dialect, server: BenchServer, bareOne: number): Promise<void> {
  // Create 1,000 queued: one request.
  let start = process.hrtime.bigint();
  const created = await json<{ id: string }>(post(`${server.url}${API}/experiments`, { ...sweep('create', 1_000, true) }));
  const create = seconds(start);
  report(`${dialect}: create 1,000-scenario experiment (queued)`, `${create.toFixed(3)} s (x${(create / bareOne).toFixed(0)} bare)`, `<= ${BUDGETS.create[dialect]} s`, create <= BUDGETS.create[dialect]);
  await waitAllFinal(server, created.id);

  // 1,000 Instant runs of one experiment, from the run request until all are final.
  const runs = await json<{ id: string }>(post(`${server.url}${API}/experiments`, sweep('runs', 1_000, false)));
  start = process.hrtime.bigint();
  await post(`${server.url}${API}/experiments/${runs.id}/run`, {});
  await waitAllFinal(server, runs.id);
  const ran = seconds(start);
  report(`${dialect}: 1,000 Instant runs until all final`, `${ran.toFixed(3)} s (x${(ran / bareOne).toFixed(0)} bare)`, `<= ${BUDGETS.runs[dialect]} s`, ran <= BUDGETS.runs[dialect]);

  // A 10,000-scenario experiment, all COMPLETE: summary and streamed CSV.
  const big = await json<{ id: string }>(post(`${server.url}${API}/experiments`, sweep('big', 10_000, true)));
  const firstMs = await waitAllFinal(server, big.id);
  const times: number[] = [];
  for (let i = 0; i < 5; i++) {
    start = process.hrtime.bigint();
    await (await fetch(`${server.url}${API}/experiments/${big.id}`)).text();
    times.push(seconds(start) * 1000);
  }
  // The first read to see every run COMPLETE computes the summary; the next ones find it kept.
  report(`${dialect}: summary of 10,000, computed (first read)`, `${firstMs.toFixed(1)} ms (x${(firstMs / 1000 / bareOne).toFixed(0)} bare)`, `<= ${BUDGETS.summaryMs} ms`, firstMs <= BUDGETS.summaryMs);
  const summaryMs = times.sort((a, b) => a - b)[2]!;
  report(`${dialect}: summary of 10,000, kept (median of 5)`, `${summaryMs.toFixed(1)} ms (x${(summaryMs / 1000 / bareOne).toFixed(0)} bare)`, `<= ${BUDGETS.summaryMs} ms`, summaryMs <= BUDGETS.summaryMs);
  const before = rssMb(server.pid);
  let peak = before;
  const res = await fetch(`${server.url}${API}/experiments/${big.id}/results?format=csv`);
  let bytes = 0;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
    bytes += chunk.length;
    peak = Math.max(peak, rssMb(server.pid));
  }
  const growth = peak - before;
  report(`${dialect}: results CSV of 10,000 (${(bytes / 1e6).toFixed(1)} MB), RSS growth`, `${growth.toFixed(1)} MB`, `<= ${BUDGETS.heapMb} MB`, growth <= BUDGETS.heapMb);
}

const bareOne = (await floor(200)) / 200;
console.log(`bare node: ${(bareOne * 1000).toFixed(3)} ms per request (ratios below are against it)`);
for (const dialect of dialects) {
  if (dialect === 'sqlite') {
    const server = await startScenarist(['--workers', '2', '--max-experiment-size', '10000']);
    try {
      await measure(dialect, server, bareOne);
    } finally {
      await server.stop();
    }
  } else {
    await withScratchDatabase(adminDatabaseUrl(), async (url) => {
      const server = await startScenarist(['--database-url', url, '--workers', '0']);
      const workers = startWorkers(url, 2);
      try {
        await measure(dialect, server, bareOne);
      } finally {
        for (const w of workers) w.kill('SIGTERM');
        await server.stop();
      }
    });
  }
}
