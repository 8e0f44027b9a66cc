/**
 * Stale marks on a 1,000-scenario list (docs/api/cycles.md; budget in docs/benchmarks.md): the
 * session's scenarios read and turned into payloads as `GET .../scenarios` does, with the stale
 * marks computed (one read of the session's current versions, the rule applied in memory) beside the
 * same list with that computation bypassed, alternated in one run on one store. The scenarios sit on a
 * master replaced twice and on what-ifs derived from its versions, so every kind of mark is computed.
 * Budget: the marks add at most 5 % to the list.
 * Run: node --import tsx bench/stale-marks.bench.ts [--database-url postgres://.../postgres]
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { loadDomain } from '../src/domain/load.js';
import { scenarioView } from '../src/scenarios/view.js';
import { openStore, type Store } from '../src/store/store.js';
import { adminDatabaseUrl, report, withScratchDatabase } from './support.js';

const SCENARIOS = 1_000;
const ROUNDS = 100;
const BUDGET = 0.05;
const TABLES = (factor: number) => JSON.stringify({ t: { columns: [{ name: 'a', type: 'integer' }], rows: [[factor], [2 * factor], [3 * factor]] } });

/** Scenarios on the master were computed on each of its three versions; the what-ifs' on their only one. */
function versionsOf(n: number) {
  const version = n % 3 === 0 ? 1 + (Math.floor(n / 3) % 3) : 1;
  return { dataset_version: version, result_dataset_version: version };
}

async function fill(store: Store): Promise<string> {
  const sid = randomUUID();
  const now = new Date().toISOString();
  await store.db.insertInto('sessions').values({ id: sid, display_name: `stale ${sid}`, created_at: now }).execute();
  const put = (key: string, factor: number, parentKey: string | null = null) =>
    store.datasets.put({ sessionId: sid, key, kind: parentKey === null ? 'master' : 'derived', createdAt: now, version: randomUUID(), tablesJson: TABLES(factor), parentKey });
  await put('week', 1);
  await put('whatif-old', 2, 'week');
  await put('week', 3);
  await put('week', 4);
  await put('whatif-new', 5, 'week');
  const keys = ['week', 'whatif-old', 'whatif-new'];
  const rows = Array.from({ length: SCENARIOS }, (_, n) => ({
    id: randomUUID(),
    session_id: sid,
    tag: `scenario ${n}`,
    dataset_key: keys[n % keys.length]!,
    algo_name: 'Instant',
    algo_params: '{}',
    data_params: '{}',
    status: 'COMPLETE' as const,
    progress: 1,
    result: JSON.stringify({ assignments: [{ sku: `S${n}`, location: `L${n}` }], unassigned: [] }),
    kpi_values: JSON.stringify({ 'Travel Distance': n }),
    error: null,
    attempts: 0,
    queue_order: null,
    created_at: now,
    queued_at: now,
    started_at: now,
    finished_at: now,
    ...versionsOf(n),
  }));
  for (let i = 0; i < rows.length; i += 200) await store.db.insertInto('scenarios').values(rows.slice(i, i + 200)).execute();
  return sid;
}

async function measure(label: string, databaseUrl: string): Promise<void> {
  const store = await openStore(databaseUrl);
  try {
    const domain = await loadDomain('scenarist:example');
    const sid = await fill(store);
    // As the list route answers: the rows and (marked) one read of the current versions for them all, made at the same time.
    const bypassed = async () => (await store.scenarios.list(sid)).map((record) => scenarioView(record, domain));
    const marked = async () => {
      const [records, versions] = await Promise.all([store.scenarios.list(sid), store.datasetVersions.currentVersions(sid)]);
      return records.map((record) => scenarioView(record, domain, undefined, versions));
    };
    const sample = await marked();
    if (sample.length !== SCENARIOS || !sample.some((view) => view.stale !== null) || !sample.some((view) => view.stale === null)) {
      throw new Error(`the list should hold both stale and current scenarios: ${sample.length}, ${sample.filter((v) => v.stale !== null).length} stale`);
    }
    const times = { bypassed: [] as number[], marked: [] as number[] };
    for (let round = 0; round < ROUNDS + 5; round++) {
      // Alternated, the first one of each pair changing, so neither side always runs on a warmer cache.
      const order = round % 2 === 0 ? (['bypassed', 'marked'] as const) : (['marked', 'bypassed'] as const);
      for (const side of order) {
        const start = performance.now();
        await (side === 'marked' ? marked() : bypassed());
        if (round >= 5) times[side].push(performance.now() - start);
      }
    }
    const sorted = (values: number[]) => [...values].sort((a, b) => a - b);
    const median = (values: number[]) => sorted(values)[Math.floor(values.length / 2)]!;
    // The fastest quarter's mean: on a loaded machine the runs a scheduler stall did not hit.
    const quickest = (values: number[]) => sorted(values).slice(0, Math.ceil(values.length / 4)).reduce((sum, v) => sum + v, 0) / Math.ceil(values.length / 4);
    const [base, withMarks] = [median(times.bypassed), median(times.marked)];
    const [quickBase, quickMarks] = [quickest(times.bypassed), quickest(times.marked)];
    const overhead = withMarks / base - 1;
    console.log(
      `${label}: list of ${SCENARIOS} without stale marks ${base.toFixed(2)} ms, with them ${withMarks.toFixed(2)} ms (median of ${ROUNDS}); ` +
        `fastest quarter ${quickBase.toFixed(2)} ms and ${quickMarks.toFixed(2)} ms (${((quickMarks / quickBase - 1) * 100).toFixed(1)} %)`,
    );
    report(`${label} stale marks on a ${SCENARIOS}-scenario list (medians)`, `${(overhead * 100).toFixed(1)} %`, `≤ ${BUDGET * 100} %`, overhead <= BUDGET);
  } finally {
    await store.close();
  }
}

const urlFlag = process.argv.indexOf('--database-url');
if (urlFlag > 0) {
  await withScratchDatabase(process.argv[urlFlag + 1] ?? adminDatabaseUrl(), (url) => measure('postgres', url));
} else {
  const dir = mkdtempSync(join(tmpdir(), 'stale-marks-'));
  try {
    await measure('sqlite', `sqlite:${join(dir, 'bench.db')}`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
