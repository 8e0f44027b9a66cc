/**
 * One experiment's sweep on many workers (`max_running_per_session`): 1,000 runs (`--runs`) of the
 * example's Sleep algorithm (200 ms, no CPU) queued at once in one session, timed from the
 * experiment's creation to its last run's end, beside the ideal of the same run (runs x 0.2 s /
 * slots). Deployments: SQLite's local executor with 8 threads (8 slots); PostgreSQL with an API node
 * and 2 and 4 `scenarist worker` processes (`--processes`) whose threads add up to the slots (8, 16
 * and 32, `--slots`); `postgres` adds one process running both. The coordinator's ceiling is measured
 * too: the runs per second of 400 runs of 1 ms at the widest slot count, whose inverse times 0.2 s is
 * the slot count past which 200 ms runs stop scaling.
 * Run: npm run build && node --import tsx bench/sweep-slots.bench.ts [sqlite|postgres|distributed ...] [--runs N] [--slots 8,16,32] [--processes 2,4] [--cold] [--count]
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { PgWireCounter } from './pg-wire-counter.js';
import { adminDatabaseUrl, benchNodeFlags, cpuSecondsOf, mainThreadCpuSecondsOf, postgresCpuSeconds, json, post, REPO_ROOT, startScenarist, withScratchDatabase, type BenchServer } from './support.js';

const RUN_MS = 200;
const THREADS = 8;
/** Runs per sweep: the issue's 1,000 unless `--runs N` says otherwise (a quicker look). */
const RUNS = Number(argument('runs') ?? 1000);
const COLD = process.argv.includes('--cold');
/** `--count`: the worker processes connect through a counting proxy; the measured sweep's statements per run are listed by kind. */
const COUNT = process.argv.includes('--count');
let counter: PgWireCounter | undefined;

function argument(name: string): string | undefined {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? undefined : process.argv[at + 1];
}

/** A deployment up: its API's base URL, its processes (for their CPU time), and how to stop everything. */
interface Started {
  readonly base: string;
  readonly apiPid: number;
  readonly workerPids: readonly number[];
  /** Whether the store is PostgreSQL (whose server's CPU time is then counted). */
  readonly postgres: boolean;
  stop(): Promise<void>;
}

interface Deployment {
  readonly name: string;
  readonly slots: readonly number[];
  /** Starts the servers for `slots` and answers the API's base URL and how to stop everything. */
  start(slots: number): Promise<Started>;
}

/** How a sweep went: seconds until all ended, and where to read its scenarios. */
interface Swept {
  readonly seconds: number;
  readonly sessionId: string;
  readonly experimentId: string;
  /** Seconds the experiment's creation (all its runs queued) took to answer. */
  readonly createSeconds: number;
  /** The most runs seen PROCESSING at once, and their mean over the polls after the creation. */
  readonly busiest: number;
  readonly meanBusy: number;
}

/** Creates a session with the example dataset, then an experiment of `runs` Sleep runs queued at once, and times it. */
async function sweep(base: string, runs: number, durationMs: number): Promise<Swept> {
  const form = await (await fetch(`${base}/sessions/main/data/example`)).text();
  const name = `sweep-${Date.now()}`;
  const list = await json<{ sessions: { id: string; display_name: string }[] }>(post(`${base}/sessions`, { display_name: name }));
  const sid = list.sessions.find((s) => s.display_name === name)!.id;
  await json(fetch(`${base}/sessions/${sid}/data/from-json`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: form }));
  const started = performance.now();
  const experiment = await json<{ id: string }>(
    post(`${base}/sessions/${sid}/experiments`, {
      name,
      algo_name: 'Sleep',
      dataset_key: 'example',
      axes: { 'algo_params.duration_ms': [durationMs] },
      repeats: runs,
      run: true,
    }),
  );
  const createSeconds = (performance.now() - started) / 1000;
  const busy: number[] = [];
  for (;;) {
    const { counts } = await json<{ counts: Record<string, number> }>(fetch(`${base}/sessions/${sid}/experiments/${experiment.id}`));
    if (counts.COMPLETE !== runs) busy.push(counts.PROCESSING ?? 0);
    if ((counts.FAILED ?? 0) > 0) {
      const page = (await (await fetch(`${base}/sessions/${sid}/scenarios?status=FAILED`)).json()) as { items: { tag: string; error: unknown }[] };
      const failed = page.items;
      throw new Error(`a run of the sweep FAILED: ${JSON.stringify(counts)}: ${JSON.stringify(failed.slice(0, 3))}`);
    }
    if (counts.COMPLETE === runs) break;
    await new Promise((r) => setTimeout(r, 25));
  }
  const busiest = Math.max(0, ...busy);
  const meanBusy = busy.reduce((sum, n) => sum + n, 0) / Math.max(1, busy.length);
  const seconds = (performance.now() - started) / 1000;
  return { seconds, createSeconds, busiest, meanBusy, sessionId: sid, experimentId: experiment.id };
}

interface ScenarioTimes {
  readonly created_at: string;
  readonly started_at: string | null;
  readonly finished_at: string | null;
}

/**
 * The ramp and the slot time per run, read after the sweep from the scenarios' own times: a poll
 * for "every slot PROCESSING at once" sees it late or never, as the first runs end before the last
 * slot's first run starts.
 */
async function slotTimes(base: string, { sessionId: sid, experimentId }: Swept, slots: number): Promise<{ rampSeconds: number; meanHeldMs: number }> {
  const items: ScenarioTimes[] = [];
  for (let cursor: string | null = null; ; ) {
    const query: string = `experiment=${experimentId}&limit=500${cursor === null ? '' : `&cursor=${encodeURIComponent(cursor)}`}`;
    const page = await json<{ items: ScenarioTimes[]; next_cursor: string | null }>(fetch(`${base}/sessions/${sid}/scenarios?${query}`));
    items.push(...page.items);
    if (page.next_cursor === null || page.items.length === 0) break;
    cursor = page.next_cursor;
  }
  const created = Math.min(...items.map((i) => Date.parse(i.created_at)));
  const starts = items.map((i) => Date.parse(i.started_at!)).sort((a, b) => a - b);
  const held = items.map((i) => Date.parse(i.finished_at!) - Date.parse(i.started_at!));
  // rampSeconds: from the experiment's creation (the server's clock) until as many runs had started as
  // there are slots; meanHeldMs: how long a run was PROCESSING, its algorithm's time and what its start
  // and end cost inside the slot.
  return { rampSeconds: (starts[slots - 1]! - created) / 1000, meanHeldMs: held.reduce((sum, ms) => sum + ms, 0) / held.length };
}

function serve(args: readonly string[]): (slots: number) => Promise<Started> {
  return async (slots) => {
    const server = await startScenarist([...args, '--max-running-per-session', String(slots), '--max-experiment-size', '100000']);
    return { base: `${server.url}/api/v1`, apiPid: server.pid, workerPids: [], postgres: args.includes('--database-url'), stop: () => server.stop() };
  };
}

function distributed(databaseUrl: string, processes: number, concurrency: number): (slots: number) => Promise<Started> {
  return async (slots) => {
    const flags = ['--max-running-per-session', String(slots)];
    let workerUrl = databaseUrl;
    if (COUNT) {
      const target = new URL(databaseUrl);
      counter = new PgWireCounter({ host: target.hostname, port: Number(target.port || 5432) });
      await counter.start();
      workerUrl = counter.url(databaseUrl);
    }
    const api: BenchServer = await startScenarist(['--database-url', databaseUrl, '--workers', '0', '--max-experiment-size', '100000', ...flags]);
    const workers: ChildProcess[] = Array.from({ length: processes }, () =>
      spawn(process.execPath, [...benchNodeFlags(), join(REPO_ROOT, 'bin/scenarist.js'), 'worker', '--database-url', workerUrl, '--concurrency', String(concurrency), '--log-level', 'warn', ...flags], {
        stdio: ['ignore', 'ignore', 'inherit'],
      }),
    );
    // The workers' graphile-worker runners and threads up before the clock starts.
    await new Promise((r) => setTimeout(r, 3_000));
    return {
      base: `${api.url}/api/v1`,
      apiPid: api.pid,
      workerPids: workers.map((w) => w.pid!),
      postgres: true,
      async stop() {
        await Promise.all(workers.map((w) => new Promise((r) => (w.kill('SIGTERM'), w.once('exit', r)))));
        await api.stop();
        await counter?.stop();
        counter = undefined;
      },
    };
  };
}

/**
 * CPU seconds so far of the API node, of the worker processes together (all threads, and their main
 * threads alone: the coordination, where the rest is the runs' own), and of PostgreSQL (NaN where not measured).
 */
function cpuNow(apiPid: number, workerPids: readonly number[], onPostgres: boolean): number[] {
  const sum = (of: (pid: number) => number) => workerPids.reduce((total, pid) => total + of(pid), 0);
  return [cpuSecondsOf(apiPid), sum((pid) => cpuSecondsOf(pid)), sum(mainThreadCpuSecondsOf), onPostgres ? postgresCpuSeconds() : Number.NaN];
}

/** The worker processes' statements per run of the measured sweep, by kind (`--count`). */
function printCounts(proxy: PgWireCounter, runs: number): void {
  const counts = proxy.take();
  console.log(`  worker processes: ${(counts.statements / runs).toFixed(2)} statements, ${(counts.roundTrips / runs).toFixed(2)} round trips, ${(counts.waitMs / runs).toFixed(2)} ms waited per run`);
  for (const [text, n] of [...counts.byText].sort((a, b) => b[1] - a[1]).slice(0, 25)) {
    console.log(`    ${(n / runs).toFixed(2).padStart(6)} ${((counts.msByText.get(text) ?? 0) / runs).toFixed(3).padStart(7)} ms  ${text.slice(0, 150)}`);
  }
}

async function measure(deployment: Deployment): Promise<void> {
  console.log(`\n${deployment.name}`);
  console.log(`${'slots'.padStart(6)} ${'runs'.padStart(6)} ${'time'.padStart(8)} ${'ideal'.padStart(8)} ${'ratio'.padStart(7)} ${'runs/s'.padStart(8)}`);
  for (const slots of deployment.slots) {
    const runs = RUNS;
    const ideal = (runs * RUN_MS) / 1000 / slots;
    const { base, apiPid, workerPids, postgres: onPostgres, stop } = await deployment.start(slots);
    try {
      // A warm-up sweep starts the run threads (they start with the first scenario created), unless
      // `--cold`: then the measured sweep pays for starting them, as a deployment's first sweep does.
      if (!COLD) await sweep(base, Math.max(slots, 8), 1);
      counter?.take();
      const cpuBefore = cpuNow(apiPid, workerPids, onPostgres);
      const swept = await sweep(base, runs, RUN_MS);
      const cpu = cpuNow(apiPid, workerPids, onPostgres).map((after, i) => ((after - cpuBefore[i]!) * 1000) / runs);
      const { seconds, createSeconds, busiest, meanBusy } = swept;
      const { rampSeconds, meanHeldMs } = await slotTimes(base, swept, Math.min(slots, runs));
      if (counter) printCounts(counter, runs);
      console.log(`${String(slots).padStart(6)} ${String(runs).padStart(6)} ${seconds.toFixed(2).padStart(7)}s ${ideal.toFixed(2).padStart(7)}s ${(seconds / ideal).toFixed(2).padStart(6)}x ${(runs / seconds).toFixed(1).padStart(8)}`);
      const [api, workers, mains, postgres] = cpu.map((ms) => (Number.isNaN(ms) ? '-' : ms.toFixed(2)));
      const workerCpu = workerPids.length === 0 ? '-' : `${workers} (main threads ${mains})`;
      console.log(`  CPU per run (ms): API node ${api}, worker processes ${workerCpu}, PostgreSQL ${postgres}`);
      console.log(`  ramp: the experiment created (its runs queued) in ${createSeconds.toFixed(2)} s, the ${slots}th run started ${rampSeconds.toFixed(2)} s after its creation`);
      console.log(`  a run held its slot ${meanHeldMs.toFixed(0)} ms on average (its algorithm ${RUN_MS} ms)`);
      console.log(`  runs PROCESSING at once, as polled: at most ${busiest}, ${meanBusy.toFixed(1)} on average`);
      if (slots === deployment.slots.at(-1)) {
        const ceilingRuns = 400;
        const { seconds: instant } = await sweep(base, ceilingRuns, 1);
        const perSecond = ceilingRuns / instant;
        console.log(`  coordinator ceiling: ${perSecond.toFixed(0)} runs/s of 1 ms runs at ${slots} slots -> 200 ms runs stop scaling near ${Math.round(perSecond * (RUN_MS / 1000))} slots`);
      }
    } finally {
      await stop();
    }
  }
}

const wanted = process.argv.slice(2).filter((a) => ['sqlite', 'postgres', 'distributed'].includes(a));
const which = wanted.length > 0 ? wanted : ['sqlite', 'distributed'];
const slotList = (argument('slots') ?? '8,16,32').split(',').map(Number);
const processCounts = (argument('processes') ?? '2,4').split(',').map(Number);
const threads = ['--workers', String(THREADS)];
if (which.includes('sqlite')) await measure({ name: `SQLite, local executor, ${THREADS} threads`, slots: [8], start: serve(threads) });
if (which.includes('postgres')) {
  await withScratchDatabase(adminDatabaseUrl(), (url) =>
    measure({ name: `PostgreSQL, one process (distributed executor), ${THREADS} threads`, slots: [8], start: serve([...threads, '--database-url', url]) }),
  );
}
if (which.includes('distributed')) {
  // Slots are the worker threads of all processes together, as many as the session may run at once.
  for (const processes of processCounts) {
    await withScratchDatabase(adminDatabaseUrl(), (url) =>
      measure({
        name: `PostgreSQL, API node + ${processes} worker processes (threads = slots / ${processes})`,
        slots: slotList,
        start: (slots) => distributed(url, processes, Math.max(1, Math.round(slots / processes)))(slots),
      }),
    );
  }
}
