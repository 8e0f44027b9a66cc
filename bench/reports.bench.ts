/**
 * Saving a report of 6 scenarios with their views, through the real server process on SQLite (the
 * bundled warehouse domain: 3 As-Is and 3 Greedy slottings of the example dataset). A report draws
 * every result view of each scenario (2 tables, a chart) and every comparison view of the six, then
 * stores the whole as one JSON document. Measured: the first save (every view drawn now, on the view
 * threads, already started), a second save of the same comparison (views from the cache), and the
 * report read back as JSON and as a workbook; beside a bare node:http round trip, the floor.
 * Budget (issue #33): a report of 6 scenarios with their views <= 1 s to save.
 * Run: npm run build && node --import tsx bench/reports.bench.ts
 */
import { json, post, report, startBareNode, startScenarist } from './support.js';

const SAVE_BUDGET_MS = 1000;
const ALGORITHMS = ['As-Is Slotting', 'Greedy Slotting'];

async function timed<T>(what: () => Promise<T>): Promise<[T, number]> {
  const start = performance.now();
  const value = await what();
  return [value, performance.now() - start];
}

async function until<T>(what: string, probe: () => Promise<T | undefined>, deadlineMs = 300_000): Promise<T> {
  const end = Date.now() + deadlineMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

const bare = await startBareNode();
const floorTimes: number[] = [];
for (let i = 0; i < 21; i++) floorTimes.push((await timed(async () => (await fetch(bare.url)).text()))[1]);
await bare.stop();
floorTimes.sort((a, b) => a - b);

const server = await startScenarist(['--workers', '2']);
try {
  const api = `${server.url}/api/v1/sessions/main`;
  const ids: string[] = [];
  for (let i = 0; i < 6; i++) {
    const scenario = await json<{ id: string }>(post(`${api}/scenarios`, { tag: `slotting ${i + 1}`, dataset_key: 'example', algo_name: ALGORITHMS[i % 2] }));
    await json(post(`${api}/scenarios/${scenario.id}/run`, {}));
    ids.push(scenario.id);
  }
  for (const id of ids) {
    await until(`scenario ${id}`, async () => ((await json<{ status: string }>(fetch(`${api}/scenarios/${id}/status`))).status === 'COMPLETE' ? true : undefined));
  }
  // The view threads start (and load the domain) with their first task: not a cost of a report.
  await json(fetch(`${api}/data/example/views`));
  const firstView = (await json<{ items: { name: string }[] }>(fetch(`${api}/data/example/views`))).items[0];
  if (firstView) await fetch(`${api}/data/example/views/${firstView.name}`).then((r) => r.text());

  const body = { title: 'Six slottings', ids, baseline: ids[0], note: 'bench' };
  const [first, firstMs] = await timed(() => json<{ id: string; views: { comparison: unknown[]; scenarios: { views: unknown[] }[] } }>(post(`${api}/reports`, body)));
  const views = first.views.comparison.length + first.views.scenarios.reduce((n, s) => n + s.views.length, 0);
  const [second, secondMs] = await timed(() => json<{ id: string }>(post(`${api}/reports`, body)));
  const [text, readMs] = await timed(async () => (await fetch(`${api}/reports/${second.id}`)).text());
  const [xlsx, xlsxMs] = await timed(async () => (await fetch(`${api}/reports/${second.id}?format=xlsx`)).arrayBuffer());

  console.log(`reports: 6 scenarios, ${views} views frozen (SQLite), bare node:http floor ${floorTimes[10]!.toFixed(1)} ms (median of 21)`);
  report('save, every view drawn now', `${firstMs.toFixed(0)} ms`, `<= ${SAVE_BUDGET_MS} ms`, firstMs <= SAVE_BUDGET_MS);
  report('save again, views from the cache', `${secondMs.toFixed(0)} ms`, `<= ${SAVE_BUDGET_MS} ms`, secondMs <= SAVE_BUDGET_MS);
  report(`read back as JSON (${(text.length / 1024).toFixed(0)} KiB)`, `${readMs.toFixed(1)} ms`, 'info', true);
  report(`read back as XLSX (${(xlsx.byteLength / 1024).toFixed(0)} KiB)`, `${xlsxMs.toFixed(1)} ms`, 'info', true);
} finally {
  await server.stop();
}
