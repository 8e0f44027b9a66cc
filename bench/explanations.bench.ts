/**
 * The store cost of an explanation (docs/benchmarks.md, "Explanations"): recording the outcome of a
 * run (`recordOutcome`: the completion with its result, KPI rows and the explanation's rows, one
 * transaction) with
 * an explanation of 10,000 violations, beside the same run's outcome without one, interleaved run by run
 * on one store. The run is the warehouse example's at 10,000 SKUs: a result of 10,000 assignments and
 * four KPIs; each violation names a location and two SKUs. The explanation is put in its stored form
 * before the clock starts, as the run's thread does before it hands over the outcome.
 * Budget: the median with it ≤ 1.2 × the median without it.
 *
 * Run: node --import tsx bench/explanations.bench.ts [--dialect sqlite|postgres] [--runs N] [--database-url postgres://.../postgres]
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { recordOutcome } from '../src/executor/queue/record-outcome.js';
import type { ClaimedRun } from '../src/executor/queue/claimed-run.js';
import type { RunOutcome } from '../src/executor/run/job.js';
import { storedExplanation } from '../src/model/explanation/stored-explanation.js';
import { openStore, type Store } from '../src/store/store.js';
import { adminDatabaseUrl, report, withScratchDatabase } from './support.js';

const argument = (name: string): string | undefined => {
  const at = process.argv.indexOf(`--${name}`);
  return at === -1 ? undefined : process.argv[at + 1];
};
const RUNS = Number(argument('runs') ?? 15);
const dialects = argument('dialect') ? [argument('dialect')!] : ['sqlite', 'postgres'];
const SKUS = 10_000;
const VIOLATIONS = 10_000;
const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const silent = { warn: () => {}, error: () => {} };

const sku = (i: number) => `SKU-${String(i).padStart(6, '0')}`;
const location = (i: number) => `A-${String(Math.floor(i / 40) % 100).padStart(2, '0')}-${String(i % 40).padStart(3, '0')}-1`;
const resultJson = JSON.stringify({ depot: { x: 0, y: 0 }, assignments: Array.from({ length: SKUS }, (_, i) => ({ sku: sku(i), location: location(i) })), unassigned: [] });
const kpis = { 'Travel Distance': 123_456.78, 'Zone Balance': 0.12, 'Reslot Moves': 4_321, 'Failing KPI': 1 };
const explanation = storedExplanation(
  [
    { kpi: 'Travel Distance', by: 'zone', value: 123_456.78, terms: { A: 60_000, B: 40_000, C: 23_456.78 }, tolerance: 1e-9 },
    { kpi: 'Reslot Moves', by: 'category', value: 4_321, terms: { dairy: 2_000, pet: 2_321 }, tolerance: 1e-9 },
  ],
  Array.from({ length: VIOLATIONS }, (_, i) => ({
    constraint: 'capacity',
    severity: 'hard' as const,
    amount: 1,
    rows: [{ table: 'warehouse_layout', key: location(i) }, { table: 'sku_data', key: sku(i) }, { table: 'sku_data', key: sku(i + 1) }],
    message: `${location(i)} (zone A) holds 2 SKUs but has room for 1`,
  })),
  true,
);

/** A scenario made PROCESSING under a fresh token, as a claim leaves it. */
async function claimed(store: Store, sessionId: string): Promise<ClaimedRun> {
  const id = randomUUID();
  const runToken = randomUUID();
  const now = new Date().toISOString();
  await store.db
    .insertInto('scenarios')
    .values({ id, session_id: sessionId, tag: id, dataset_key: 'example', algo_name: 'As-Is Slotting', algo_params: '{}', data_params: '{}', status: 'PROCESSING', progress: 0.5, attempts: 1, created_at: now, started_at: now, lease_owner: runToken } as never)
    .execute();
  const job = { scenarioId: id, sessionId, datasetKey: 'example', algoName: 'As-Is Slotting', algoParams: {}, dataParams: {}, deadline: Date.now() + 3_600_000, seed: 1 };
  return { job, tag: id, attempt: 1, runToken, timeLimitMs: 3_600_000 };
}

async function measure(store: Store, dialect: string): Promise<void> {
  const sessionId = randomUUID();
  await store.sessions.insert({ id: sessionId, displayName: `bench ${sessionId}`, createdAt: new Date().toISOString() });
  const time = async (outcome: RunOutcome) => {
    const run = await claimed(store, sessionId);
    const start = process.hrtime.bigint();
    await recordOutcome(store.runs, run, undefined, outcome, silent);
    return Number(process.hrtime.bigint() - start) / 1e6;
  };
  const plain: RunOutcome = { status: 'COMPLETE', resultJson, kpis };
  const explained: RunOutcome = { ...plain, explanation };
  // Warm-up: the statements compiled, the file grown.
  for (let i = 0; i < 3; i++) await time(explained).then(() => time(plain));
  const without: number[] = [];
  const withIt: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    without.push(await time(plain));
    withIt.push(await time(explained));
  }
  const base = median(without);
  const cost = median(withIt) / base - 1;
  console.log(`${dialect}: store time of one run, median of ${RUNS}: without ${base.toFixed(2)} ms, with 10,000 violations ${median(withIt).toFixed(2)} ms`);
  report(`explanation of 10,000 violations, ${dialect}`, `+${(cost * 100).toFixed(1)} %`, '< +20 %', cost < 0.2);
}

for (const dialect of dialects) {
  if (dialect === 'sqlite') {
    const dir = mkdtempSync(join(tmpdir(), 'scenarist-bench-'));
    const store = await openStore(`sqlite:${join(dir, 'bench.db')}`);
    try {
      await measure(store, dialect);
    } finally {
      await store.close();
      rmSync(dir, { recursive: true, force: true });
    }
  } else {
    await withScratchDatabase(adminDatabaseUrl(), async (url) => {
      const store = await openStore(url);
      try {
        await measure(store, dialect);
      } finally {
        await store.close();
      }
    });
  }
}
