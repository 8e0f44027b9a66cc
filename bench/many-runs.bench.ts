/**
 * Speed of many small runs (budgets in docs/benchmarks.md), on SQLite and on PostgreSQL, each as a
 * multiple of the bare node:http floor for the same number of sequential requests, measured in the
 * same round:
 *  - 1,000 GET /health through the whole app (guards on);
 *  - 1,000 run requests alone (SQLite, `--workers 0`: what the HTTP thread pays to queue a run);
 *  - 1,000 Instant runs in one session, until all are final (PostgreSQL: an API node and 2 worker
 *    processes);
 *  - 200 Instant runs over 20 sessions, drained;
 *  - 1,000 sequential creates after 20 to warm up, and 1,000 from a fresh server's first;
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
import { writeFileSync } from 'node:fs';
import { generateWarehouse } from '../examples/warehouse/generate-samples.js';
import { bareSequential, timeCreates, timeFreshCreates, timeHealth, timeInstantRuns, timeQueueDrain, timeRunRequests, withServer, withWorkerProcesses, type Build, type Dialect } from './run-figures.js';
import { REPO_ROOT, report, type BenchServer } from './support.js';

const argument = (name: string): string | undefined => {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? undefined : process.argv[at + 1];
};

const dialects: Dialect[] = argument('dialect') ? [argument('dialect') as Dialect] : ['sqlite', 'postgres'];
const only = argument('only');
let scrapeTo = argument('scrape-metrics');
const repeat = Number(argument('repeat') ?? 1);
const builds: Build[] = [
  { name: 'this build', root: REPO_ROOT },
  ...(argument('baseline-root') ? [{ name: 'baseline', root: argument('baseline-root')! }] : []),
];

/** Budgets as multiples of the bare floor (the original's own multiples in brackets, where measured). */
const RATIO_BUDGETS = {
  health: 1.3,
  runRequests: 2,
  oneSession: { sqlite: 3, postgres: 5, original: '3.5' },
  drain: { sqlite: 3, postgres: 5, original: '3.4' },
  creates: { sqlite: 2.5, postgres: 3.5, original: '3.3' },
};

/** Writes one `GET /metrics` of `server` to the `--scrape-metrics` file, the first time only: mid-run, the queue full and the workers busy. */
function scrapeMetrics(server: BenchServer): (() => Promise<void>) | undefined {
  const to = scrapeTo;
  if (to === undefined) return undefined;
  scrapeTo = undefined;
  return async () => writeFileSync(to, await (await fetch(`${server.url}/metrics`)).text());
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
        const health = await withServer(dialect, build, [], timeHealth);
        reportRatio(`1,000 GET /health, whole app (${label})`, health, floor.gets, RATIO_BUDGETS.health);
        if (dialect === 'sqlite') {
          const requests = await withServer(dialect, build, ['--workers', '0'], (s) => timeRunRequests(s, 1_000));
          reportRatio(`1,000 run requests alone, --workers 0 (${label})`, requests, floor.posts, RATIO_BUDGETS.runRequests);
        }
        const one =
          dialect === 'postgres'
            ? await withServer(dialect, build, ['--workers', '0'], (s, url) => withWorkerProcesses(s, build, url!, () => timeInstantRuns(s, 1, 1_000, scrapeMetrics(s))))
            : await withServer(dialect, build, ['--workers', '2'], (s) => timeInstantRuns(s, 1, 1_000, scrapeMetrics(s)));
        const where = dialect === 'postgres' ? ', 2 worker processes' : '';
        reportRatio(`1,000 Instant runs, one session (${label}${where})`, one, floor.posts, RATIO_BUDGETS.oneSession[dialect], RATIO_BUDGETS.oneSession.original);
        if (dialect === 'sqlite') {
          // Beside it, a session's queue drained with no client request between its runs: the run bookkeeping alone.
          const queued = await withServer(dialect, build, ['--workers', '2'], (s) => timeQueueDrain(s, 1_000));
          reportRatio(`1,000 queued Instant runs of one session drained (${label})`, queued, floor.posts, Number.POSITIVE_INFINITY);
        }
        const drain = await withServer(dialect, build, ['--workers', '2'], (s) => timeInstantRuns(s, 20, 10));
        reportRatio(`200 Instant runs, 20 sessions (${label})`, drain, floor.posts200, RATIO_BUDGETS.drain[dialect], RATIO_BUDGETS.drain.original);
        const creates = await withServer(dialect, build, [], timeCreates);
        reportRatio(`1,000 creates, sequential (${label})`, creates, floor.posts, RATIO_BUDGETS.creates[dialect], RATIO_BUDGETS.creates.original);
        const fresh = await withServer(dialect, build, [], timeFreshCreates);
        reportRatio(`1,000 creates from a fresh server's first (${label})`, fresh, floor.posts, RATIO_BUDGETS.creates[dialect], RATIO_BUDGETS.creates.original);
      }
      if (only !== 'runs') {
        const { small, large } = await withServer(dialect, build, BIG_BODY, fromJsonRatio);
        const ratio = large / small;
        report(`from-json 1M / 100k rows (${label})`, `x${ratio.toFixed(2)}`, `<= x10.5 (${(small / 1000).toFixed(2)} s, ${(large / 1000).toFixed(2)} s)`, ratio <= 10.5);
        const median = await withServer(dialect, build, [], smallEtlMedian);
        report(`ETL 10k-row CSV, median of 12 (${label})`, `${median.toFixed(3)} s`, '<= 0.04 s (original 0.063 s)', median <= 0.04);
      }
    }
  }
}
