/**
 * Rebase (budget in docs/benchmarks.md, issue #42): a 50-node what-if tree, each branch made with 10
 * edits, on a 100k-row master, rebased onto the master's next version (1 % of its rows changed) in one
 * request, through the real server process on SQLite; beside it, in the same run, one derive with the
 * same 10 edits of the same master (the unit of work a rebase repeats per branch).
 * Run: npm run build && node --import tsx bench/rebase.bench.ts
 */
import { generateWarehouse } from '../examples/warehouse/generate-samples.js';
import { json, post, report, startScenarist } from './support.js';

const BUDGET_MS = 2_000;
/** Root, 7 branches of it and 6 branches of each: 50 scenarios, 49 of them with 10 edits. */
const FAN_OUT = [7, 6] as const;

/** Ten edits, seven of the 100k-row table (as bench/what-if.bench.ts); inserted SKUs are the node's own, so a chain never repeats a key. */
function tenEdits(node: number) {
  return [
    { table: 'sku_data', update: { where: { category: 'pet' }, scale: { daily_picks: 1.1 } } },
    { table: 'sku_data', update: { where: { category: ['dairy', 'produce'] }, set: { description: `what-if ${node}` } } },
    { table: 'sku_data', update: { where: { daily_picks: { gte: 100, lte: 200 } }, scale: { daily_picks: 0.9 } } },
    { table: 'sku_data', delete: { where: { category: 'household', daily_picks: { lte: 1 } } } },
    { table: 'sku_data', insert: [1, 2, 3].map((i) => ({ sku: `WHATIF-${node}-${i}`, category: 'pet', daily_picks: 10 * i })) },
    { table: 'sku_data', update: { where: { category: 'snacks' }, set: { category: 'treats' } } },
    { table: 'sku_data', update: { where: { sku: 'SKU-000010' }, set: { current_location: null } } },
    { table: 'warehouse_layout', update: { where: { zone: 'A' }, scale: { capacity: 2 } } },
    { table: 'warehouse_layout', update: { where: { aisle: { gte: 2, lte: 3 } }, set: { capacity: 1 } } },
    { table: 'warehouse_layout', delete: { where: { level: 4, zone: 'C' } } },
  ];
}

/** The sample files; `changed`: every 100th SKU's daily picks doubled (1 % of the rows). */
function files(changed: boolean) {
  const { skuCsv, layoutCsv } = generateWarehouse({ skus: 100_000, locations: 1_000, seed: 7 });
  if (!changed) return { skuCsv, layoutCsv };
  const lines = skuCsv.split('\n');
  // The samples are written with `;` between cells: split on anything else and no row would change.
  const separator = lines[0]!.includes(';') ? ';' : ',';
  const header = lines[0]!.split(separator);
  const picks = header.indexOf('daily_picks');
  if (picks < 0) throw new Error('the sample SKU file has no daily_picks column');
  let changes = 0;
  for (let i = 1; i < lines.length; i += 100) {
    const cells = lines[i]!.split(separator);
    if (cells.length === header.length && cells[picks] !== '') {
      cells[picks] = String(Number(cells[picks]) * 2);
      changes++;
    }
    lines[i] = cells.join(separator);
  }
  if (changes === 0) throw new Error('the next version changed no row');
  return { skuCsv: lines.join('\n'), layoutCsv };
}

async function upload(base: string, name: string, changed: boolean): Promise<void> {
  const { skuCsv, layoutCsv } = files(changed);
  const form = new FormData();
  form.append('dataset_name', name);
  form.append('files', new Blob([skuCsv]), 'sku_data.csv');
  form.append('files', new Blob([layoutCsv]), 'warehouse_layout.csv');
  const result = await json<{ success: boolean; messages: unknown[] }>(fetch(`${base}/etl`, { method: 'POST', body: form }));
  if (!result.success) throw new Error(`ETL failed: ${JSON.stringify(result.messages.slice(0, 3))}`);
}

async function created<T>(url: string, body: object): Promise<T> {
  const res = await post(url, body);
  if (res.status !== 201) throw new Error(`${url}: ${res.status} ${(await res.text()).slice(0, 500)}`);
  return (await res.json()) as T;
}

async function main(): Promise<void> {
  const server = await startScenarist();
  try {
    const base = `${server.url}/api/v1/sessions/main`;
    await upload(base, 'week', false);
    const root = await created<{ id: string }>(`${base}/scenarios`, { tag: 'as-is', dataset_key: 'week', algo_name: 'Instant' });
    let node = 0;
    let level = [root.id];
    for (const fan of FAN_OUT) {
      const next: string[] = [];
      for (const parent of level) {
        for (let i = 0; i < fan; i++) {
          node++;
          next.push((await created<{ id: string }>(`${base}/scenarios/${parent}/branch`, { tag: `what-if ${node}`, edits: tenEdits(node) })).id);
        }
      }
      level = next;
    }
    const size = node + 1;
    // The baseline: one derive of the same size from the master, measured in the same run.
    let started = performance.now();
    await created(`${base}/data/week/derive`, { new_key: 'one derive', edits: tenEdits(0) });
    const derive = performance.now() - started;

    await upload(base, 'week', true);
    started = performance.now();
    const { scenarios } = await created<{ scenarios: unknown[] }>(`${base}/scenarios/${root.id}/rebase`, { tree: true });
    const rebase = performance.now() - started;
    if (scenarios.length !== size) throw new Error(`rebase made ${scenarios.length} successors, not ${size}`);

    report('sqlite: one derive with 10 edits, 100k rows (baseline)', `${derive.toFixed(1)} ms`, 'baseline', true);
    report(`sqlite: rebase a ${size}-node tree, 10 edits each, 100k rows`, `${rebase.toFixed(1)} ms (${(rebase / derive).toFixed(1)}× one derive)`, `< ${BUDGET_MS} ms`, rebase < BUDGET_MS);
  } finally {
    await server.stop();
  }
}

await main();
