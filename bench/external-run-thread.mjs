// The thread side of external.bench.ts: the 100k-row external run with the run core, as a worker thread
// of the executor makes it (from the compiled build, as the server's threads run), posting back what the
// executor receives (the outcome, its result as JSON text) and this thread's own peak heap growth
// (`process.memoryUsage().heapUsed` in a worker thread is that thread's own heap).
import { parentPort, workerData } from 'node:worker_threads';
import { Type } from '@sinclair/typebox';
import { defineDomain, defineExternalAlgorithm, defineResultType, defineSchemas } from '../dist/src/domain/define.js';
import { DomainRegistry } from '../dist/src/domain/registry.js';
import { DEFAULT_EXTERNAL_LIMITS } from '../dist/src/executor/run/external/external-limits.js';
import { runScenario } from '../dist/src/executor/run/run-scenario.js';

/** Reads 100k rows, answers 100k rows. */
const ECHO_ROWS = 'import json,sys; t=json.load(sys.stdin)["dataset"]["tables"]["items"]; json.dump({"rows": [[r[0], r[1] * 2] for r in t["rows"]]}, sys.stdout)';

const rows = defineResultType('rows', Type.Object({ rows: Type.Array(Type.Tuple([Type.String(), Type.Number()])) }));
const schemas = defineSchemas({ items: { tables: { items: { columns: { name: { type: 'string' }, weight: { type: 'float' } } } } } });
const echo = defineExternalAlgorithm({ name: 'Echo', parameters: {}, result: rows, external: { command: ['python3', '-c', ECHO_ROWS] } });
const registry = new DomainRegistry(defineDomain({ name: 'bench', schemas, algorithms: [echo], kpis: [] }));

/**
 * The stored form of a dataset of `rows` rows: its tables' JSON text, kept as bytes (outside the heap)
 * until the run reads it, then decoded into one string, as the store's driver hands a row's text to the run.
 */
const storedBytes = (rows) =>
  Buffer.from(
    JSON.stringify({
      items: {
        columns: [{ name: 'name', type: 'string' }, { name: 'weight', type: 'float' }],
        rows: Array.from({ length: rows }, (_, i) => [`item-${i}`, (i % 997) / 10]),
      },
    }),
  );

const runOn = (bytes) =>
  runScenario(
    { scenarioId: 'bench', sessionId: 'bench', datasetKey: 'big', algoName: 'Echo', algoParams: {}, dataParams: {}, deadline: Number.MAX_SAFE_INTEGER, seed: 1 },
    {
      domain: registry,
      // As the executor's DatasetCache: the text read from the store during the run (so it counts as
      // growth), the parsed dataset only on request (which this run must not make).
      datasets: {
        load: () => Promise.reject(new Error('the run asked for the dataset as objects')),
        loadTablesJson: () => Promise.resolve(bytes.toString('utf8')),
      },
      progress: () => undefined,
      signal: new globalThis.AbortController().signal,
      log: { info: () => undefined, warn: () => undefined, error: () => undefined },
      externalLimits: DEFAULT_EXTERNAL_LIMITS,
    },
  );

// A first small run, as a thread of a running server has made before: it compiles the run's code and
// the result type's check once per thread, which is not the growth of a run.
await runOn(storedBytes(10));
const big = storedBytes(workerData.rows);
globalThis.gc?.();
const before = process.memoryUsage().heapUsed;
let peak = before;
const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().heapUsed)), 2);
const outcome = await runOn(big);
clearInterval(sampler);
parentPort.postMessage({ outcome, threadGrowth: Math.max(peak, process.memoryUsage().heapUsed) - before });
