/**
 * List queries at scale: a session of 100,000 scenarios (and one of 100,000 datasets), pages of 50
 * filtered and sorted, on SQLite and PostgreSQL, through the real server process; beside the latency
 * of a bare node:http server answering a fixed body (the floor of any HTTP round trip here).
 * Budget: a filtered page of 50 in < 20 ms (SQLite) and < 40 ms (PostgreSQL).
 * Run: npm run build && node --import tsx bench/lists.bench.ts [--database-url postgres://.../postgres]
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { listDatasetPage } from '../src/store/dataset-list-query.js';
import { listScenarioPage, type ScenarioPageQuery } from '../src/store/scenario-list-query.js';
import { openStore, type Store } from '../src/store/store.js';
import type { StoreDialect } from '../src/store/dialect.js';
import { adminDatabaseUrl, report, startBareNode, startScenarist, withScratchDatabase } from './support.js';

const SCENARIOS = 100_000;
const DATASETS = 100_000;
const REQUESTS = 40;
const ALGOS = ['As-Is Slotting', 'Greedy Slotting', 'Simulated Annealing Slotting', 'Instant'];
const STATUSES = ['COMPLETE', 'COMPLETE', 'COMPLETE', 'FAILED', 'CREATED'] as const;
const BUDGET_MS: Record<StoreDialect, number> = { sqlite: 20, postgres: 40 };

/** Fills the store directly (the HTTP API would take minutes for 200,000 rows). */
async function fill(databaseUrl: string): Promise<void> {
  const store = await openStore(databaseUrl);
  try {
    const now = new Date().toISOString();
    for (const name of ['bench', 'bench-data']) {
      await store.db.insertInto('sessions').values({ id: randomUUID(), display_name: name, created_at: now }).execute();
    }
    const sessionOf = async (name: string) =>
      (await store.db.selectFrom('sessions').select('id').where('display_name', '=', name).executeTakeFirstOrThrow()).id;
    const bench = await sessionOf('bench');
    const benchData = await sessionOf('bench-data');
    const table = JSON.stringify({ t: { columns: [{ name: 'a', type: 'integer' }], rows: [[1], [2], [3]] } });
    await store.datasets.put({ sessionId: bench, key: 'example', kind: 'master', createdAt: now, version: randomUUID(), tablesJson: table });
    const BATCH = 500;
    for (let i = 0; i < SCENARIOS; i += BATCH) {
      const rows = Array.from({ length: Math.min(BATCH, SCENARIOS - i) }, (_, j) => {
        const n = i + j;
        const status = STATUSES[n % STATUSES.length]!;
        const kpis = status === 'COMPLETE' ? JSON.stringify({ 'Travel Distance': (n * 7919) % 100_003, 'Zone Balance': (n % 97) / 97, 'Reslot Moves': n % 13 }) : null;
        return {
          id: randomUUID(),
          session_id: bench,
          tag: `scenario ${String(n).padStart(6, '0')}`,
          dataset_key: n % 10 === 0 ? 'other' : 'example',
          algo_name: ALGOS[n % ALGOS.length]!,
          algo_params: '{}',
          data_params: '{}',
          status,
          progress: status === 'CREATED' ? 0 : 1,
          result: status === 'COMPLETE' ? JSON.stringify({ assignments: [{ sku: `S${n}`, location: `L${n}` }], unassigned: [] }) : null,
          kpi_values: kpis,
          error: status === 'FAILED' ? 'boom' : null,
          attempts: 0,
          queue_order: null,
          created_at: now,
          queued_at: null,
          started_at: null,
          finished_at: null,
          lease_owner: null,
          lease_expires_at: null,
        };
      });
      await store.db.insertInto('scenarios').values(rows).execute();
    }
    // The KPI rows a completion writes, as migration 0008 backfills them.
    await (store.dialect === 'postgres'
      ? sql`insert into scenario_kpis (scenario_seq, session_id, name, value)
            select s.seq, s.session_id, j.key, (j.value)::double precision from scenarios s, jsonb_each_text(s.kpi_values::jsonb) j
            where s.status = 'COMPLETE' and s.kpi_values is not null`
      : sql`insert into scenario_kpis (scenario_seq, session_id, name, value)
            select s.seq, s.session_id, j.key, j.value from scenarios s, json_each(s.kpi_values) j
            where s.status = 'COMPLETE' and s.kpi_values is not null`
    ).execute(store.db);
    for (let i = 0; i < DATASETS; i += BATCH) {
      const rows = Array.from({ length: Math.min(BATCH, DATASETS - i) }, (_, j) => ({
        session_id: benchData,
        key: `dataset ${String(i + j).padStart(6, '0')}`,
        kind: (i + j) % 3 === 0 ? ('derived' as const) : ('master' as const),
        created_at: now,
        version: randomUUID(),
      }));
      await store.db.insertInto('datasets').values(rows).execute();
    }
    // Every dataset holds the one small table: stored once (content-addressed), named by each dataset.
    await store.datasets.put({ sessionId: benchData, key: 'dataset 000000', kind: 'derived', createdAt: now, version: randomUUID(), tablesJson: table });
    await sql`insert into dataset_tables (dataset_seq, position, name, hash)
      select d.seq, 0, 't', (select t.hash from dataset_tables t join datasets f on f.seq = t.dataset_seq where f.session_id = ${benchData} and f.key = 'dataset 000000') from datasets d
      where d.session_id = ${benchData} and not exists (select 1 from dataset_tables x where x.dataset_seq = d.seq)`.execute(store.db);
    // Planner statistics, as a long-running database would have them.
    await sql`analyze`.execute(store.db);
  } finally {
    await store.close();
  }
}

/** Median and 95th percentile of sequential GETs of `url`, checking each answered 200. */
async function latency(url: string): Promise<{ median: number; p95: number }> {
  const times: number[] = [];
  for (let i = 0; i < REQUESTS + 5; i++) {
    const started = performance.now();
    const res = await fetch(url);
    await res.arrayBuffer();
    if (!res.ok) throw new Error(`${url}: ${res.status}`);
    if (i >= 5) times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return { median: times[Math.floor(times.length / 2)]!, p95: times[Math.floor(times.length * 0.95)]! };
}

/** A cursor some pages in, so the deep-page figure is measured too. */
async function cursorAfter(url: string, pages: number): Promise<string> {
  let cursor = '';
  for (let i = 0; i < pages; i++) {
    const page = (await (await fetch(`${url}${cursor ? `&cursor=${cursor}` : ''}`)).json()) as { next_cursor: string };
    cursor = page.next_cursor;
  }
  return cursor;
}

/** Median and 95th percentile of `run` called sequentially. */
async function timed(run: () => Promise<unknown>): Promise<{ median: number; p95: number }> {
  const times: number[] = [];
  for (let i = 0; i < REQUESTS + 5; i++) {
    const started = performance.now();
    await run();
    if (i >= 5) times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return { median: times[Math.floor(times.length / 2)]!, p95: times[Math.floor(times.length * 0.95)]! };
}

/** The store's share: the page queries alone, in this process, without HTTP. */
async function benchQueries(dialect: StoreDialect, store: Store): Promise<void> {
  const sessionId = async (name: string) =>
    (await store.db.selectFrom('sessions').select('id').where('display_name', '=', name).executeTakeFirstOrThrow()).id;
  const bench = await sessionId('bench');
  const benchData = await sessionId('bench-data');
  const page = (part: Partial<ScenarioPageQuery>): ScenarioPageQuery => ({
    sessionId: bench,
    filter: {},
    sort: { by: 'created_at', descending: false },
    limit: 50,
    withResult: false,
    ...part,
  });
  const queries: [string, ScenarioPageQuery][] = [
    ['status+algo, newest first', page({ filter: { status: 'COMPLETE', algo: 'Greedy Slotting' }, sort: { by: 'created_at', descending: true } })],
    ['dataset filter, by tag', page({ filter: { dataset: 'other' }, sort: { by: 'tag', descending: false } })],
    ['tag substring', page({ filter: { q: '99' } })],
    ['sorted by KPI', page({ filter: { status: 'COMPLETE' }, sort: { by: 'kpi', kpi: 'Travel Distance', descending: false } })],
    ['sorted by KPI descending, algo filter', page({ filter: { algo: 'Instant' }, sort: { by: 'kpi', kpi: 'Travel Distance', descending: true } })],
  ];
  const budget = BUDGET_MS[dialect];
  for (const [name, query] of queries) {
    const { median, p95 } = await timed(() => listScenarioPage(store.db, store.adapter, query));
    report(`${dialect} store query: ${name}`, `${median.toFixed(1)} ms (p95 ${p95.toFixed(1)})`, `< ${budget} ms`, median < budget);
  }
  const datasets = await timed(() => listDatasetPage(store.db, store.adapter, { sessionId: benchData, kind: 'derived', q: '12', limit: 50 }));
  report(`${dialect} store query: datasets kind + substring`, `${datasets.median.toFixed(1)} ms (p95 ${datasets.p95.toFixed(1)})`, `< ${budget} ms`, datasets.median < budget);
}

async function benchDialect(dialect: StoreDialect, databaseUrl: string): Promise<void> {
  const started = performance.now();
  await fill(databaseUrl);
  console.log(`\n${dialect}: ${SCENARIOS} scenarios and ${DATASETS} datasets stored in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  const store = await openStore(databaseUrl);
  try {
    await benchQueries(dialect, store);
  } finally {
    await store.close();
  }
  const server = await startScenarist(['--database-url', databaseUrl, '--workers', '0']);
  try {
    const base = `${server.url}/api/v1/sessions/bench/scenarios`;
    const budget = BUDGET_MS[dialect];
    const pages: [string, string][] = [
      ['status+algo, newest first, no result', `${base}?status=COMPLETE&algo=Greedy%20Slotting&sort=-created_at&limit=50&fields=id,tag,status,kpis`],
      ['status+algo, full scenarios', `${base}?status=COMPLETE&algo=Greedy%20Slotting&limit=50`],
      ['dataset filter, by tag', `${base}?dataset=other&sort=tag&limit=50&fields=id,tag,status`],
      ['tag substring', `${base}?q=99&limit=50&fields=id,tag`],
      ['sorted by KPI, best first', `${base}?sort=kpi:Travel%20Distance&status=COMPLETE&limit=50&fields=id,tag,kpis`],
      ['sorted by KPI descending, algo filter', `${base}?sort=-kpi:Travel%20Distance&algo=Instant&limit=50&fields=id,tag,kpis`],
    ];
    for (const [name, url] of pages) {
      const { median, p95 } = await latency(url);
      report(`${dialect} scenarios: ${name}`, `${median.toFixed(1)} ms (p95 ${p95.toFixed(1)})`, `< ${budget} ms`, median < budget);
    }
    const deepUrl = `${base}?sort=kpi:Travel%20Distance&limit=50&fields=id,tag,kpis`;
    const deep = await latency(`${deepUrl}&cursor=${await cursorAfter(deepUrl, 100)}`);
    report(`${dialect} scenarios: KPI sort, page 101`, `${deep.median.toFixed(1)} ms (p95 ${deep.p95.toFixed(1)})`, `< ${budget} ms`, deep.median < budget);

    const data = `${server.url}/api/v1/sessions/bench-data/data`;
    for (const [name, url] of [
      ['first page', `${data}?limit=50`],
      ['kind + key substring', `${data}?kind=derived&q=12&limit=50`],
    ] as const) {
      const { median, p95 } = await latency(url);
      report(`${dialect} datasets: ${name}`, `${median.toFixed(1)} ms (p95 ${p95.toFixed(1)})`, `< ${budget} ms`, median < budget);
    }
    const dataDeep = await latency(`${data}?limit=50&cursor=${await cursorAfter(`${data}?limit=50`, 100)}`);
    report(`${dialect} datasets: page 101`, `${dataDeep.median.toFixed(1)} ms (p95 ${dataDeep.p95.toFixed(1)})`, `< ${budget} ms`, dataDeep.median < budget);
  } finally {
    await server.stop();
  }
}

async function main(): Promise<void> {
  const bare = await startBareNode();
  try {
    const { median, p95 } = await latency(bare.url);
    report('bare node:http fixed body (baseline)', `${median.toFixed(1)} ms (p95 ${p95.toFixed(1)})`, 'floor', true);
  } finally {
    await bare.stop();
  }
  const dir = mkdtempSync(join(tmpdir(), 'scenarist-lists-bench-'));
  try {
    await benchDialect('sqlite', `sqlite:${join(dir, 'lists.db')}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  await withScratchDatabase(adminDatabaseUrl(), (url) => benchDialect('postgres', url));
}

await main();
