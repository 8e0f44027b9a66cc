/**
 * Dataset versions' storage (budget in docs/benchmarks.md, "Dataset versions"), in process on SQLite
 * and PostgreSQL: the bytes a new version of a 100k-row master that differs in 1 % of its rows adds
 * (the changed rows together, and at random, twice), beside the bytes of a full copy of the table in the same
 * run: the table's text stored whole (the layout before packs) and the table stored in packs into an
 * empty store. Also the time to store (an upload, later uploads, each version) and to read the
 * 100k-row dataset and a version of it, beside the same text written and read as one row (the
 * whole-table layout) in the same database.
 * Run: node --import tsx bench/dataset-versions-storage.bench.ts
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { generateWarehouse } from '../examples/warehouse/generate-samples.js';
import type { StoreDialect } from '../src/store/dialect.js';
import { openStore, type Store } from '../src/store/store.js';
import { storedTablesOfJson } from '../src/store/table-contents.js';
import { adminDatabaseUrl, report, withScratchDatabase } from './support.js';

const ROWS = 100_000;
const ROUNDS = 5;
const BUDGET = 0.05;
const SESSION = 'bench';
const COLUMNS = [
  { name: 'sku', type: 'string' },
  { name: 'description', type: 'string' },
  { name: 'category', type: 'string' },
  { name: 'daily_picks', type: 'float' },
  { name: 'current_location', type: 'string' },
] as const;
type Row = [string, string, string, number, string | null];

function masterRows(): Row[] {
  const { skuCsv } = generateWarehouse({ skus: ROWS, locations: 1_000, seed: 7 });
  return skuCsv
    .trim()
    .split('\n')
    .slice(1)
    .map((line) => {
      const [sku, description, category, picks, location] = line.split(';');
      return [sku!, description!, category!, Number(picks), location ? location : null];
    });
}

/**
 * How a version's 1 % of changed rows lie: a stretch of consecutive rows, or rows drawn at random, the
 * second time other rows (the store has a version's out-of-line manifest already: on PostgreSQL the first
 * one creates the TOAST relation of `table_contents`, its free space and visibility maps, once per store).
 */
type Where = 'clustered' | 'scattered' | 'scattered again';

/** 1 % of the rows with a new `daily_picks`, where `where` says. */
function changed(rows: readonly Row[], where: Where): Row[] {
  const count = rows.length / 100;
  let seed = where === 'scattered again' ? 4242 : 42;
  const random = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32);
  const picked = new Set<number>();
  if (where === 'clustered') for (let i = 0; i < count; i++) picked.add(40_000 + i);
  else while (picked.size < count) picked.add(Math.floor(random() * rows.length));
  return rows.map((row, i) => (picked.has(i) ? [row[0], row[1], row[2], Math.round((row[3] + 1.5) * 100) / 100, row[4]] : row));
}

const tablesJson = (rows: readonly Row[]) => JSON.stringify({ sku_data: { columns: COLUMNS, rows } });

/** Bytes the store's tables take on disk (SQLite: pages in use after a checkpoint; PostgreSQL: relation sizes). */
async function storedBytes(store: Store, dialect: StoreDialect, tables: readonly string[]): Promise<number> {
  if (dialect === 'sqlite') {
    await sql`pragma wal_checkpoint(TRUNCATE)`.execute(store.db);
    const pages = await sql<{ n: number }>`select (select page_count from pragma_page_count()) - (select freelist_count from pragma_freelist_count()) as n`.execute(store.db);
    const size = await sql<{ n: number }>`select page_size as n from pragma_page_size()`.execute(store.db);
    return pages.rows[0]!.n * size.rows[0]!.n;
  }
  await sql`vacuum analyze`.execute(store.db).catch(() => undefined);
  let bytes = 0;
  for (const table of tables) {
    const { rows } = await sql<{ n: string }>`select pg_total_relation_size(${table}::regclass) as n`.execute(store.db);
    bytes += Number(rows[0]!.n);
  }
  return bytes;
}

const STORE_TABLES = ['table_packs', 'table_contents', 'table_content_packs', 'dataset_tables', 'datasets', 'dataset_versions', 'dataset_version_tables'];

interface Timing {
  readonly ms: number;
  /** This process's CPU time in the same round: on SQLite, which runs in the process, the work without the waits of a loaded machine. */
  readonly cpuMs: number;
}

/** The round of median wall time, with its CPU time. */
async function median(rounds: number, run: (i: number) => Promise<unknown>): Promise<Timing> {
  const times: Timing[] = [];
  for (let i = 0; i < rounds; i++) {
    const started = performance.now();
    const cpu = process.cpuUsage();
    await run(i);
    const used = process.cpuUsage(cpu);
    times.push({ ms: performance.now() - started, cpuMs: (used.user + used.system) / 1e3 });
  }
  return times.sort((a, b) => a.ms - b.ms)[Math.floor(times.length / 2)]!;
}

const shown = (t: Timing, dialect: StoreDialect) => `${t.ms.toFixed(0)} ms${dialect === 'sqlite' ? ` (cpu ${t.cpuMs.toFixed(0)} ms)` : ''}`;

async function benchDialect(dialect: StoreDialect, databaseUrl: string, rows: readonly Row[]): Promise<void> {
  const store = await openStore(databaseUrl);
  const kb = (bytes: number) => `${(bytes / 1e3).toFixed(0)} kB`;
  try {
    await store.sessions.insert({ id: SESSION, displayName: SESSION, createdAt: new Date().toISOString() });
    // As an upload stores it: its tables' texts made already (`tables`), so the time is the store's.
    const put = (key: string, text: string, tables = storedTablesOfJson(text)) =>
      store.datasets.put({ sessionId: SESSION, key, kind: 'master', createdAt: new Date().toISOString(), version: randomUUID(), tables });
    const master = tablesJson(rows);

    // The whole-table layout in the same database: the table's text as one row.
    await sql`create table bench_whole (id text primary key, content text not null)`.execute(store.db);
    const wholeBefore = await storedBytes(store, dialect, ['bench_whole']);
    const wholeWrite = await median(ROUNDS, (i) => sql`insert into bench_whole (id, content) values (${`w${i}`}, ${master})`.execute(store.db));
    const whole = ((await storedBytes(store, dialect, ['bench_whole'])) - wholeBefore) / ROUNDS;
    const wholeRead = await median(ROUNDS, (i) => sql`select content from bench_whole where id = ${`w${i}`}`.execute(store.db));

    const before = await storedBytes(store, dialect, STORE_TABLES);
    const masterTables = storedTablesOfJson(master);
    const packedWrite = await median(1, () => put('master', master, masterTables));
    const full = (await storedBytes(store, dialect, STORE_TABLES)) - before;
    const packedRead = await median(ROUNDS, async () => {
      if ((await store.datasets.get(SESSION, 'master'))!.tablesJson.length !== master.length) throw new Error('read back differs');
    });
    // Later uploads of another 100k-row table under other keys (nothing to share: the first upload's cost, repeated).
    const others = Array.from({ length: ROUNDS - 1 }, (_, i) => storedTablesOfJson(tablesJson(rows.map((r) => [`${r[0]}-${i}`, r[1], r[2], r[3], r[4]]))));
    const uploads = await median(ROUNDS - 1, (i) => put(`other ${i}`, '', others[i]));
    const times = (t: Timing, base: Timing) => `${shown(t, dialect)} = ${(t.ms / base.ms).toFixed(1)} x whole`;
    const versionWrites: [string, Timing, Timing][] = [];
    report(`${dialect}: full copy of the 100k-row table, whole-table layout (baseline)`, `${kb(whole)} (text ${kb(master.length)})`, 'baseline', true);
    report(`${dialect}: full copy of the same table in packs`, `${kb(full)} (${(full / whole).toFixed(2)} x whole)`, 'reported', true);
    for (const where of ['clustered', 'scattered', 'scattered again'] as const) {
      const version = tablesJson(changed(rows, where));
      const versionTables = storedTablesOfJson(version);
      const start = await storedBytes(store, dialect, STORE_TABLES);
      // A new version of `master`: written against it (its base), then read back, then the master restored for the next.
      const stored = await median(1, () => put('master', version, versionTables));
      const added = (await storedBytes(store, dialect, STORE_TABLES)) - start;
      const read = await median(ROUNDS, async () => {
        if ((await store.datasets.get(SESSION, 'master'))!.tablesJson !== version) throw new Error('version reads back wrong');
      });
      await put('master', master, masterTables);
      report(
        `${dialect}: new version, 1 % of rows changed (${where})`,
        `${kb(added)} = ${((100 * added) / whole).toFixed(2)} % of the whole-table copy, ${((100 * added) / full).toFixed(2)} % of the packed one`,
        `< ${BUDGET * 100} % of a full copy`,
        added < BUDGET * whole,
      );
      versionWrites.push([where, stored, read]);
    }
    report(`${dialect}: store 100k rows, whole text as one row (baseline, median of ${ROUNDS})`, shown(wholeWrite, dialect), 'baseline', true);
    report(`${dialect}: store the 100k-row dataset in packs (first upload)`, times(packedWrite, wholeWrite), 'reported', true);
    report(`${dialect}: store another 100k-row dataset (later uploads, median of ${ROUNDS - 1})`, times(uploads, wholeWrite), 'reported', true);
    for (const [where, t] of versionWrites) report(`${dialect}: store the new version, 1 % of rows changed (${where})`, times(t, wholeWrite), 'reported', true);
    report(`${dialect}: read 100k rows, whole text as one row (baseline, median of ${ROUNDS})`, shown(wholeRead, dialect), 'baseline', true);
    report(`${dialect}: read the 100k-row dataset from its pack (median of ${ROUNDS})`, times(packedRead, wholeRead), 'reported', true);
    for (const [where, , t] of versionWrites) report(`${dialect}: read the version (${where}) from its packs (median of ${ROUNDS})`, times(t, wholeRead), 'reported', true);
  } finally {
    await store.close();
  }
}

async function main(): Promise<void> {
  const rows = masterRows();
  const dir = mkdtempSync(join(tmpdir(), 'scenarist-versions-storage-bench-'));
  try {
    await benchDialect('sqlite', `sqlite:${join(dir, 'versions.db')}`, rows);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  await withScratchDatabase(adminDatabaseUrl(), (url) => benchDialect('postgres', url, rows));
}

await main();
