/**
 * External algorithms (docs/external-algorithms.md), two budgets:
 * - the cost of one run of the example's smallest dataset (the bundled sample) through the run core,
 *   against the floor of spawning the same interpreter with the same input (start python3, read the
 *   input, write a result), over 100 runs each, interleaved so both see the same machine load
 *   (budget: ≤ 1.5× the floor);
 * - the same through the running service: `scenarist serve` with the example domain on SQLite, the
 *   example's Python algorithm created and run on the sample 100 times, each timed from its run request
 *   to its COMPLETE event, interleaved with the floor of the same program on the same input;
 * - a 100k-row input to the program and a 100k-row result back: the heap growth of the server's thread
 *   and of the worker thread running the program, each sampled at its peak, their sum against the
 *   input's JSON size (budget: ≤ 2×).
 * Run: npm run build && node --expose-gc --max-semi-space-size=1 --import tsx bench/external.bench.ts
 * (a 1 MiB young generation: the sampled heap peaks then show what is live, not how long the scavenger waited)
 */
import { spawn } from 'node:child_process';
import { loadavg } from 'node:os';
import { Worker } from 'node:worker_threads';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { Type } from '@sinclair/typebox';
import { runEtl } from '../src/datasets/etl/index.js';
import type { Dataset, Tables } from '../src/domain/dataset-model.js';
import { defineDomain, defineExternalAlgorithm, defineResultType } from '../src/domain/define.js';
import { DomainRegistry } from '../src/domain/registry.js';
import { DEFAULT_EXTERNAL_LIMITS } from '../src/executor/run/external/external-limits.js';
import type { RunOutcome } from '../src/executor/run/job.js';
import { runScenario } from '../src/executor/run/run-scenario.js';
import { schemas as warehouseSchemas } from '../examples/warehouse/schemas.js';
import warehouse from '../examples/warehouse/index.js';
import { validateParams } from '../src/params/validate.js';
import { report, startScenarist } from './support.js';

const RUNS = 100;
const BIG_ROWS = 100_000;

/** The floor's program and the external algorithm's: read the whole input, write a small valid result. */
const READ_AND_ANSWER = 'import json,sys; json.load(sys.stdin); sys.stdout.write(\'{"n": 0}\')';

const small = defineResultType('small', Type.Object({ n: Type.Number() }));

const contract = defineExternalAlgorithm({ name: 'Read', parameters: {}, result: small, external: { command: ['python3', '-c', READ_AND_ANSWER] } });

const noLog = { info: () => undefined, warn: () => undefined, error: () => undefined };

function runOnce(registry: DomainRegistry, algoName: string, dataset: Dataset): Promise<RunOutcome> {
  return runScenario(
    { scenarioId: 'bench', sessionId: 'bench', datasetKey: dataset.key, algoName, algoParams: {}, dataParams: {}, deadline: Number.MAX_SAFE_INTEGER, seed: 1 },
    { domain: registry, datasets: { load: () => Promise.resolve(dataset) }, progress: () => undefined, signal: new AbortController().signal, log: noLog, externalLimits: DEFAULT_EXTERNAL_LIMITS },
  );
}

/** The floor: python3 started directly with the same program and the same input bytes, its stdout read whole. */
function floorOnce(input: string, args: readonly string[] = ['-c', READ_AND_ANSWER]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn('python3', args, { stdio: ['pipe', 'pipe', 'ignore'] });
    const out: Buffer[] = [];
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
    child.once('error', reject);
    child.once('close', (code) => {
      if (code !== 0) return reject(new Error(`python3 exited ${code}`));
      JSON.parse(Buffer.concat(out).toString('utf8'));
      resolve();
    });
    child.stdin.end(input);
  });
}

function contractInput(tables: Tables): string {
  return JSON.stringify({ dataset: { tables }, params: {}, data_params: {}, seed: 1 });
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const mean = (values: number[]) => values.reduce((sum, v) => sum + v, 0) / values.length;

async function perRunCost(): Promise<void> {
  const sample = (file: string) => fileURLToPath(new URL(`../examples/warehouse/sample/${file}`, import.meta.url));
  const files = await Promise.all(['sku_data.csv', 'warehouse_layout.csv'].map(async (name) => ({ filename: name, data: await readFile(sample(name)) })));
  const etl = await runEtl(warehouseSchemas, files);
  if (!etl.success) throw new Error('the sample files failed the ETL');
  const dataset: Dataset = { key: 'sample', kind: 'master', createdAt: new Date().toISOString(), tables: etl.tables };
  const registry = new DomainRegistry(defineDomain({ name: 'bench', schemas: warehouseSchemas, algorithms: [contract], kpis: [] }));
  const input = contractInput(dataset.tables);
  const external: number[] = [];
  const floor: number[] = [];
  // Warm-up: the first spawn pays for loading python3 from disk; neither side should carry it.
  await floorOnce(input);
  await runOnce(registry, 'Read', dataset);
  for (let i = 0; i < RUNS; i++) {
    let started = performance.now();
    await floorOnce(input);
    floor.push(performance.now() - started);
    started = performance.now();
    const outcome = await runOnce(registry, 'Read', dataset);
    external.push(performance.now() - started);
    if (outcome.status !== 'COMPLETE') throw new Error(`the external run failed: ${outcome.message}`);
  }
  const ratio = mean(external) / mean(floor);
  console.log(`sample input: ${(input.length / 1024).toFixed(0)} KiB of JSON; ${RUNS} runs each`);
  console.log(`  floor (python3 -c, same input):   mean ${mean(floor).toFixed(1)} ms, median ${median(floor).toFixed(1)} ms`);
  console.log(`  external run (runScenario):       mean ${mean(external).toFixed(1)} ms, median ${median(external).toFixed(1)} ms`);
  report('external run of the sample / floor (mean)', `${ratio.toFixed(2)}x`, '<= 1.5x', ratio <= 1.5);
}

/**
 * The 100k-row run as the executor makes it: the run core in a worker thread (which reads the dataset's
 * stored text, streams it to the program, checks the result as text), the outcome posted to this (the
 * server's) thread. Each thread samples its own heap (`heapUsed` is per thread); the figure is the sum
 * of both peaks, which bounds their growth at any one moment.
 */
async function bigRunHeap(): Promise<void> {
  const inputBytes = Buffer.byteLength(
    contractInput({ items: { columns: [{ name: 'name', type: 'string' }, { name: 'weight', type: 'float' }], rows: Array.from({ length: BIG_ROWS }, (_, i) => [`item-${i}`, (i % 997) / 10]) } }),
  );
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with node --expose-gc --max-semi-space-size=1');
  gc();
  const before = process.memoryUsage().heapUsed;
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().heapUsed)), 2);
  // From the compiled build, as the server's threads run (npm run build first).
  const thread = new Worker(new URL('./external-run-thread.mjs', import.meta.url), { execArgv: [], workerData: { rows: BIG_ROWS } });
  const { outcome, threadGrowth } = await new Promise<{ outcome: RunOutcome; threadGrowth: number }>((resolve, reject) => {
    thread.once('message', resolve);
    thread.once('error', reject);
  });
  peak = Math.max(peak, process.memoryUsage().heapUsed);
  clearInterval(sampler);
  await thread.terminate();
  if (outcome.status !== 'COMPLETE') throw new Error(`the 100k-row run failed: ${outcome.message}`);
  const serverGrowth = peak - before;
  const growth = serverGrowth + threadGrowth;
  const ratio = growth / inputBytes;
  const mib = (bytes: number) => `${(bytes / 1024 ** 2).toFixed(1)} MiB`;
  console.log(
    `100k rows: input ${mib(inputBytes)} of JSON, result ${mib(outcome.resultJson.length)}; heap growth at its peak: server thread ${mib(serverGrowth)}, run thread ${mib(threadGrowth)}, both ${mib(growth)}`,
  );
  report('100k rows in and out: heap growth of both threads / input', `${ratio.toFixed(2)}x`, '<= 2x', ratio <= 2);
}

/** Resolves with the id of each scenario of `sid` as its COMPLETE (or FAILED) event arrives on the session's event stream. */
async function settledEvents(api: string, sid: string, signal: AbortSignal): Promise<(id: string) => Promise<string>> {
  const waiting = new Map<string, (status: string) => void>();
  const early = new Map<string, string>();
  const response = await fetch(`${api}/sessions/${sid}/events`, { signal });
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  let buffered = '';
  void (async () => {
    for (;;) {
      const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true as const }));
      if (done) return;
      buffered += decoder.decode(value, { stream: true });
      const lines = buffered.split('\n');
      buffered = lines.pop()!;
      for (const line of lines) {
        if (!line.startsWith('data: ')) continue;
        const event = JSON.parse(line.slice(6)) as { type: string; scenario_id?: string; status?: string };
        if ((event.type !== 'scenario.completed' && event.type !== 'scenario.failed') || !event.scenario_id) continue;
        const resolve = waiting.get(event.scenario_id);
        if (resolve) resolve(event.status!);
        else early.set(event.scenario_id, event.status!);
      }
    }
  })();
  return (id) => (early.has(id) ? Promise.resolve(early.get(id)!) : new Promise((resolve) => waiting.set(id, resolve)));
}

/**
 * The per-run budget through the running service: the example's Local Search (Python), with no
 * iterations (so it reads the input, builds today's slots and answers, the floor's work), on the sample,
 * timed from the run request to its COMPLETE event; the floor is the same program started directly
 * with the same input, run for run.
 */
async function serviceRunCost(): Promise<void> {
  const sample = (file: string) => fileURLToPath(new URL(`../examples/warehouse/sample/${file}`, import.meta.url));
  const files = await Promise.all(['sku_data.csv', 'warehouse_layout.csv'].map(async (name) => ({ filename: name, data: await readFile(sample(name)) })));
  const etl = await runEtl(warehouseSchemas, files);
  if (!etl.success) throw new Error('the sample files failed the ETL');
  const registry = new DomainRegistry(warehouse);
  const algoName = 'Local Search (Python)';
  const algoParams = { iterations: 0 };
  const program = fileURLToPath(new URL('../examples/warehouse/algorithms/local_search.py', import.meta.url));
  const floorInput = JSON.stringify({
    dataset: { tables: etl.tables },
    params: validateParams(registry.algorithm(algoName)!.parameters, algoParams),
    data_params: validateParams(registry.dataParameters, {}),
    seed: 1,
  });
  const server = await startScenarist(['--workers', '1']);
  const api = `${server.url}/api/v1`;
  const call = async (method: string, path: string, body?: unknown) => {
    const res = await fetch(`${api}${path}`, { method, ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }) });
    if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${await res.text()}`);
    return (await res.json()) as Record<string, unknown>;
  };
  const stream = new AbortController();
  try {
    const sid = 'main';
    await call('POST', `/sessions/${sid}/data/from-json`, { key: 'bench-sample', tables: etl.tables });
    const settled = await settledEvents(api, sid, stream.signal);
    const runOnce = async (n: number) => {
      const created = await call('POST', `/sessions/${sid}/scenarios`, { tag: `bench ${n}`, dataset_key: 'bench-sample', algo_name: algoName, algo_params: algoParams });
      const id = created.id as string;
      const started = performance.now();
      await call('POST', `/sessions/${sid}/scenarios/${id}/run`);
      const status = await settled(id);
      if (status !== 'COMPLETE') throw new Error(`scenario ${id} ended ${status}`);
      return performance.now() - started;
    };
    // Warm-up: the run thread's first start and python3's first load from disk.
    await floorOnce(floorInput, [program]);
    await runOnce(0);
    const service: number[] = [];
    const floor: number[] = [];
    for (let i = 1; i <= RUNS; i++) {
      const started = performance.now();
      await floorOnce(floorInput, [program]);
      floor.push(performance.now() - started);
      service.push(await runOnce(i));
    }
    const ratio = mean(service) / mean(floor);
    console.log(`through the service (${algoName}, iterations 0, sample ${(floorInput.length / 1024).toFixed(0)} KiB of input); ${RUNS} runs each`);
    console.log(`  floor (python3 local_search.py, same input): mean ${mean(floor).toFixed(1)} ms, median ${median(floor).toFixed(1)} ms`);
    console.log(`  run request to COMPLETE event:              mean ${mean(service).toFixed(1)} ms, median ${median(service).toFixed(1)} ms`);
    report('service run of the sample / floor (mean)', `${ratio.toFixed(2)}x`, '<= 1.5x', ratio <= 1.5);
  } finally {
    stream.abort();
    await server.stop();
  }
}

console.log(`load average at the start: ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
await bigRunHeap();
await serviceRunCost();
await perRunCost();
console.log(`load average at the end: ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
