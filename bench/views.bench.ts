/**
 * A result view whose table holds 100,000 rows (the views test domain's `Rows` algorithm, rows from a
 * generator), through the real server process on SQLite: the first page (drawn in the view pool's
 * thread, cached), a next page, and a first page sorted by a column; beside the latency of a bare
 * node:http server answering a fixed body (the floor of any HTTP round trip here). Memory is the
 * server process's resident size (every thread's heap included), before and after.
 * Budget: first page <= 300 ms; server memory growth <= 50 MB.
 * Run: npm run build && node --import tsx bench/views.bench.ts
 */
import { fileURLToPath } from 'node:url';
import { json, post, report, rssMb, startBareNode, startScenarist } from './support.js';

const ROWS = 100_000;
const FIRST_PAGE_BUDGET_MS = 300;
const MEMORY_BUDGET_MB = 50;
const DOMAIN = fileURLToPath(new URL('../test/fixtures/views-domain.ts', import.meta.url));
const ITEMS = { key: 'items', tables: { items: { columns: [{ name: 'name', type: 'string' }, { name: 'weight', type: 'float' }], rows: [['a', 1]] } } };

async function timed<T>(what: () => Promise<T>): Promise<[T, number]> {
  const start = performance.now();
  const value = await what();
  return [value, performance.now() - start];
}

async function until<T>(what: string, probe: () => Promise<T | undefined>, deadlineMs = 120_000): Promise<T> {
  const end = Date.now() + deadlineMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const bare = await startBareNode();
const [, floorMs] = await timed(async () => (await fetch(bare.url)).text());
const floorTimes: number[] = [];
for (let i = 0; i < 20; i++) floorTimes.push((await timed(async () => (await fetch(bare.url)).text()))[1]);
await bare.stop();
floorTimes.sort((a, b) => a - b);
void floorMs;

const server = await startScenarist(['--domain', DOMAIN, '--workers', '1']);
try {
  const api = `${server.url}/api/v1/sessions/main`;
  await json(post(`${api}/data/from-json`, ITEMS));
  const scenario = await json<{ id: string }>(post(`${api}/scenarios`, { tag: 'big', dataset_key: 'items', algo_name: 'Rows', algo_params: { count: ROWS } }));
  await json(post(`${api}/scenarios/${scenario.id}/run`, {}));
  await until('the run', async () => ((await json<{ status: string }>(fetch(`${api}/scenarios/${scenario.id}/status`))).status === 'COMPLETE' ? true : undefined));
  // The pool's thread starts (and loads the domain) with its first task: not a cost of the view.
  await json(fetch(`${api}/data/items/views/weights`));
  const before = rssMb(server.pid);

  const view = `${api}/scenarios/${scenario.id}/views/rows`;
  const [first, firstMs] = await timed(() => json<{ spec: { total: number; next_cursor: string } }>(fetch(`${view}?limit=100`)));
  if (first.spec.total !== ROWS) throw new Error(`expected ${ROWS} rows, got ${first.spec.total}`);
  const after = rssMb(server.pid);
  const [, nextMs] = await timed(() => json(fetch(`${view}?limit=100&cursor=${first.spec.next_cursor}`)));
  const [, sortedMs] = await timed(() => json(fetch(`${view}?limit=100&sort=-value`)));
  const [, sortedAgainMs] = await timed(() => json(fetch(`${view}?limit=100&sort=-value`)));
  // Once the pool's thread has idled out (5 s), what stays is the cached rows.
  await new Promise((r) => setTimeout(r, 7000));
  const settled = rssMb(server.pid);

  console.log(`views: a table view of ${ROWS} rows (SQLite), bare node:http floor ${floorTimes[10]!.toFixed(1)} ms (median of 20)`);
  report('first page of 100 (drawn, cached)', `${firstMs.toFixed(0)} ms`, `<= ${FIRST_PAGE_BUDGET_MS} ms`, firstMs <= FIRST_PAGE_BUDGET_MS);
  report('next page (from the cache)', `${nextMs.toFixed(1)} ms`, 'info', true);
  report('first page sorted by a column (sorts once)', `${sortedMs.toFixed(1)} ms`, 'info', true);
  report('same sort again', `${sortedAgainMs.toFixed(1)} ms`, 'info', true);
  report('server memory growth, first page (RSS)', `${(after - before).toFixed(1)} MB`, `<= ${MEMORY_BUDGET_MB} MB`, after - before <= MEMORY_BUDGET_MB);
  report('server memory growth, thread idled out (RSS)', `${(settled - before).toFixed(1)} MB`, `<= ${MEMORY_BUDGET_MB} MB`, settled - before <= MEMORY_BUDGET_MB);
} finally {
  await server.stop();
}
