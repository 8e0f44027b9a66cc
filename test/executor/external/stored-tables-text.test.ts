import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { defineDomain, defineExternalAlgorithm, defineResultType, defineSchemas } from '../../../src/domain/define.js';
import { DomainRegistry } from '../../../src/domain/registry.js';
import { DEFAULT_EXTERNAL_LIMITS } from '../../../src/executor/run/external/external-limits.js';
import type { DatasetLoader, RunOutcome } from '../../../src/executor/run/job.js';
import { runScenario } from '../../../src/executor/run/run-scenario.js';

/**
 * An external algorithm with no KPI: the program reads the dataset's stored JSON text as it is (never
 * parsed into objects by the run), and its result, checked as text, is stored as the program wrote it.
 */

/** Doubles each row's weight; `mode` "bad" answers a string where a number belongs. */
const ECHO = [
  'import json,sys',
  'request = json.load(sys.stdin)',
  'rows = request["dataset"]["tables"]["items"]["rows"]',
  'bad = request["params"]["mode"] == "bad"',
  'json.dump({"rows": [[r[0], "x" if bad else r[1] * 2] for r in rows]}, sys.stdout)',
  'print()',
].join('\n');

const rows = defineResultType('rows', Type.Object({ rows: Type.Array(Type.Tuple([Type.String(), Type.Number()])) }));
const schemas = defineSchemas({ items: { tables: { items: { columns: { name: { type: 'string' }, weight: { type: 'float' } } } } } });
const echo = defineExternalAlgorithm({
  name: 'Echo',
  parameters: { mode: { kind: 'enum', choices: ['good', 'bad'], default: 'good' } },
  result: rows,
  external: { command: ['python3', '-c', ECHO] },
});
const domain = new DomainRegistry(defineDomain({ name: 'stored-text', schemas, algorithms: [echo], kpis: [] }));

const TABLES_JSON = '{"items":{"columns":[{"name":"name","type":"string"},{"name":"weight","type":"float"}],"rows":[["a \\"quoted\\"",1.5],["b",2]]}}';

function run(mode: string): Promise<{ outcome: RunOutcome; parsedLoads: number }> {
  let parsedLoads = 0;
  const datasets: DatasetLoader = {
    load: () => {
      parsedLoads++;
      return Promise.reject(new Error('the run asked for the dataset as objects'));
    },
    loadTablesJson: () => Promise.resolve(TABLES_JSON),
  };
  return runScenario(
    { scenarioId: 's', sessionId: 'x', datasetKey: 'items', algoName: 'Echo', algoParams: { mode }, dataParams: {}, deadline: Number.MAX_SAFE_INTEGER, seed: 1 },
    { domain, datasets, progress: () => undefined, signal: new AbortController().signal, log: { info: () => undefined, warn: () => undefined, error: () => undefined }, externalLimits: DEFAULT_EXTERNAL_LIMITS },
  ).then((outcome) => ({ outcome, parsedLoads }));
}

describe('an external algorithm without KPIs', () => {
  it('reads the stored tables text and its result is stored as the program wrote it, the dataset never parsed', async () => {
    const { outcome, parsedLoads } = await run('good');
    // Python's separators (", " and ": ") show the text was kept, not parsed and written again.
    expect(outcome).toEqual({ status: 'COMPLETE', resultJson: '{"rows": [["a \\"quoted\\"", 3.0], ["b", 4]]}', kpis: {} });
    expect(parsedLoads).toBe(0);
  });

  it('fails ALGORITHM_ERROR naming the first wrong path of a result not of its type', async () => {
    const { outcome } = await run('bad');
    expect(outcome).toMatchObject({ status: 'FAILED', code: 'ALGORITHM_ERROR', message: expect.stringMatching(/at \/rows\/0\/1: expected number/) as unknown });
  });
});
