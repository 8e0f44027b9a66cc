/**
 * What-if data edits (budgets in docs/benchmarks.md), through the real server process, on SQLite and
 * PostgreSQL: a derive with 10 edits of a 100k-row dataset beside a plain derive (a copy) and the bare
 * node:http floor of a round trip; the storage an edit of one small table of a 1M-row dataset adds
 * (content bytes, against that table's size); and a copy of a session whose dataset holds 1M rows
 * (contents added, and its time).
 * Run: npm run build && node --import tsx bench/what-if.bench.ts [--database-url postgres://.../postgres]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { generateWarehouse } from '../examples/warehouse/generate-samples.js';
import type { StoreDialect } from '../src/store/dialect.js';
import { openStore } from '../src/store/store.js';
import { adminDatabaseUrl, json, post, report, startBareNode, startScenarist, withScratchDatabase } from './support.js';

const ROUNDS = 5;
const DERIVE_BUDGET_MS: Record<StoreDialect, number> = { sqlite: 200, postgres: 400 };
const COPY_BUDGET_MS = 100;

/** Ten edits, seven of them of the 100k-row table: the worst case reads, edits and stores it whole. */
const TEN_EDITS = [
  { table: 'sku_data', update: { where: { category: 'pet' }, scale: { daily_picks: 1.1 } } },
  { table: 'sku_data', update: { where: { category: ['dairy', 'produce'] }, set: { description: 'what-if' } } },
  { table: 'sku_data', update: { where: { daily_picks: { gte: 100, lte: 200 } }, scale: { daily_picks: 0.9 } } },
  { table: 'sku_data', delete: { where: { category: 'household', daily_picks: { lte: 1 } } } },
  { table: 'sku_data', insert: [1, 2, 3].map((i) => ({ sku: `WHATIF-${i}`, category: 'pet', daily_picks: 10 * i })) },
  { table: 'sku_data', update: { where: { category: 'snacks' }, set: { category: 'treats' } } },
  { table: 'sku_data', update: { where: { sku: 'SKU-000010' }, set: { current_location: null } } },
  { table: 'warehouse_layout', update: { where: { zone: 'A' }, scale: { capacity: 2 } } },
  { table: 'warehouse_layout', update: { where: { aisle: { gte: 2, lte: 3 } }, set: { capacity: 1 } } },
  { table: 'warehouse_layout', delete: { where: { level: 4, zone: 'C' } } },
];

async function upload(base: string, name: string, skus: number, locations: number): Promise<void> {
  const { skuCsv, layoutCsv } = generateWarehouse({ skus, locations, seed: 7 });
  const form = new FormData();
  form.append('dataset_name', name);
  form.append('files', new Blob([skuCsv]), 'sku_data.csv');
  form.append('files', new Blob([layoutCsv]), 'warehouse_layout.csv');
  const result = await json<{ success: boolean; messages: unknown[] }>(fetch(`${base}/etl`, { method: 'POST', body: form }));
  if (!result.success) throw new Error(`ETL failed: ${JSON.stringify(result.messages.slice(0, 3))}`);
}

async function timedMedian(rounds: number, run: (i: number) => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const started = performance.now();
    await run(i);
    times.push(performance.now() - started);
  }
  return times.sort((a, b) => a - b)[Math.floor(times.length / 2)]!;
}

async function derive(base: string, key: string, body: object): Promise<void> {
  const res = await post(`${base}/data/${encodeURIComponent(key)}/derive`, body);
  if (res.status !== 201) throw new Error(`derive: ${res.status} ${await res.text()}`);
  await res.arrayBuffer();
}

async function benchDialect(dialect: StoreDialect, databaseUrl: string, floor: number): Promise<void> {
  const server = await startScenarist(['--database-url', databaseUrl]);
  // A second handle reads the store's figures (SQLite: a reader beside the server's writer).
  const store = await openStore(databaseUrl, { migrate: false });
  const contents = async () => {
    const { rows } = await sql<{ n: string | number; bytes: string | number | null }>`select count(*) as n, (select sum(length(text)) from table_packs) as bytes from table_contents`.execute(store.db);
    return { count: Number(rows[0]!.n), bytes: Number(rows[0]!.bytes ?? 0) };
  };
  try {
    const base = `${server.url}/api/v1/sessions/main`;
    await upload(base, 'big', 100_000, 1_000);
    const copy = await timedMedian(ROUNDS, (i) => derive(base, 'big', { new_key: `copy-${i}` }));
    const edited = await timedMedian(ROUNDS, (i) => derive(base, 'big', { new_key: `edited-${i}`, edits: TEN_EDITS }));
    report(`${dialect}: bare node:http round trip (floor)`, `${floor.toFixed(1)} ms`, 'floor', true);
    report(`${dialect}: plain derive (copy), 100k rows (median)`, `${copy.toFixed(1)} ms`, 'baseline', true);
    const budget = DERIVE_BUDGET_MS[dialect];
    report(`${dialect}: derive with 10 edits, 100k rows (median)`, `${edited.toFixed(1)} ms`, `<= ${budget} ms`, edited <= budget);

    const millionBase = `${server.url}/api/v1/sessions/million`;
    await post(`${server.url}/api/v1/sessions`, { display_name: 'million' });
    await upload(millionBase, 'huge', 1_000_000, 1_000);
    // Tables' rows are stored in chunks (src/store/table-contents.ts): content bytes are the chunks' texts.
    const layout = await sql<{ hash: string }>`select dt.hash from dataset_tables dt
      join datasets d on d.seq = dt.dataset_seq where d.key = 'huge' and dt.name = 'warehouse_layout'`.execute(store.db);
    const tableBytes = (await store.datasets.content(layout.rows[0]!.hash))!.length;
    const before = await contents();
    await derive(millionBase, 'huge', { new_key: 'huge edited', edits: [TEN_EDITS[7]] });
    const added = (await contents()).bytes - before.bytes;
    report(
      `${dialect}: storage added by an edit of the 1k-row table of a 1M-row dataset`,
      `${(added / 1e3).toFixed(1)} kB (table ${(tableBytes / 1e3).toFixed(1)} kB, dataset ${(before.bytes / 1e6).toFixed(0)} MB)`,
      '< 2x the table',
      added < 2 * tableBytes,
    );

    const beforeCopy = await contents();
    const copyTime = await timedMedian(3, (i) => json(post(`${server.url}/api/v1/sessions/million/copy`, { new_display_name: `million copy ${i}` })));
    const afterCopy = await contents();
    report(`${dialect}: session copy, datasets of 1M rows (median of 3)`, `${copyTime.toFixed(1)} ms, ${afterCopy.count - beforeCopy.count} tables added`, `<= ${COPY_BUDGET_MS} ms, 0 tables`, copyTime <= COPY_BUDGET_MS && afterCopy.count === beforeCopy.count);
  } finally {
    await store.close();
    await server.stop();
  }
}

async function roundTrip(): Promise<number> {
  const bare = await startBareNode();
  try {
    return await timedMedian(50, async () => (await fetch(bare.url)).arrayBuffer());
  } finally {
    await bare.stop();
  }
}

async function main(): Promise<void> {
  const floor = await roundTrip();
  const dir = mkdtempSync(join(tmpdir(), 'scenarist-what-if-bench-'));
  try {
    await benchDialect('sqlite', `sqlite:${join(dir, 'what-if.db')}`, floor);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  await withScratchDatabase(adminDatabaseUrl(), (url) => benchDialect('postgres', url, floor));
}

await main();
