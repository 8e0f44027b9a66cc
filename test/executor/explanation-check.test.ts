import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineAlgorithm, defineDomain, defineExplanations, defineKpi, defineSchemas, type Explanation } from '../../src/domain/define.js';
import { DomainRegistry } from '../../src/domain/registry.js';
import { DatasetCache } from '../../src/executor/run/dataset-cache.js';
import type { RunEnvironment, RunJob } from '../../src/executor/run/job.js';
import { runScenario } from '../../src/executor/run/run-scenario.js';
import { unpackChunk, type KpiExplanation } from '../../src/model/explanation/stored-explanation.js';
import { openStore, type Store } from '../../src/store/store.js';
import { createTestDatabase, type TestDatabase } from '../support/dialects.js';

const schemas = defineSchemas({
  items: { tables: { items: { columns: { name: { type: 'string', primaryKey: true }, weight: { type: 'float' } } } } },
  notes: { required: false, tables: { notes: { columns: { text: { type: 'string' } } } } },
});
const kit = defineExplanations(schemas);

/** Returns the total weight and explains it as the test asks (`explanation` is the JSON text of what to give). */
const explaining = defineAlgorithm({
  name: 'Explaining',
  parameters: { explanation: { kind: 'string', default: '' } },
  run(data: { tables: { items: { rows: readonly { name: string; weight: number }[] } } }, params, ctx) {
    if (params.explanation !== '') ctx.explain(JSON.parse(params.explanation) as Explanation);
    return { total: data.tables.items.rows.reduce((sum, row) => sum + row.weight, 0) };
  },
});
const total = defineKpi({
  name: 'Total',
  unit: 'kg',
  betterWhen: 'LOWER',
  appliesTo: [explaining],
  compute: (result) => result.total,
  terms: { by: 'item' },
});
const count = defineKpi({ name: 'Count', unit: '', betterWhen: 'LOWER', appliesTo: [explaining], compute: () => 2 });
const domain = new DomainRegistry(defineDomain({ name: 'explaining', schemas, algorithms: [explaining], kpis: [total, count] }));

const silent = { info: () => {}, warn: () => {}, error: () => {} };
const items = JSON.stringify({ items: { columns: [{ name: 'name', type: 'string' }, { name: 'weight', type: 'float' }], rows: [['a', 1.5], ['b', 2.5]] } });

/** The run core's check of what an algorithm explains: shapes, KPI names and rows, against a real stored dataset. */
describe('the explanation a run gives', () => {
  let database: TestDatabase;
  let store: Store;
  const sessionId = randomUUID();
  beforeAll(async () => {
    database = await createTestDatabase('sqlite');
    store = await openStore(database.url);
    await store.sessions.insert({ id: sessionId, displayName: 'explain', createdAt: new Date().toISOString() });
    await store.datasets.put({ sessionId, key: 'items', kind: 'master', createdAt: new Date().toISOString(), version: randomUUID(), tablesJson: items });
  });
  afterAll(async () => {
    await store?.close();
    await database?.drop();
  });

  const run = (explanation: unknown) => {
    const job: RunJob = { scenarioId: randomUUID(), sessionId, datasetKey: 'items', deadline: Date.now() + 60_000, seed: 1, algoName: 'Explaining', algoParams: { explanation: JSON.stringify(explanation) }, dataParams: {} };
    const env: RunEnvironment = { domain, datasets: new DatasetCache(store.datasets), progress: () => {}, signal: new AbortController().signal, log: silent };
    return runScenario(job, env);
  };
  const failure = async (explanation: unknown) => {
    const outcome = await run(explanation);
    if (outcome.status !== 'FAILED') throw new Error(`expected FAILED, got ${outcome.status}`);
    return outcome;
  };

  it('keeps terms, residual and violations naming existing rows; a hard violation makes the run infeasible, still COMPLETE', async () => {
    const outcome = await run(
      kit.explanation({
        terms: { Total: { a: 1.5, b: 2.4 } },
        violations: [
          { constraint: 'weight', severity: 'soft', amount: 1, rows: [kit.row('items', 'a')], message: 'light' },
          { constraint: 'weight', severity: 'hard', amount: 0.5, rows: [kit.row('items', 'b')], message: 'heavy' },
        ],
      }),
    );
    expect(outcome.status).toBe('COMPLETE');
    if (outcome.status !== 'COMPLETE') return;
    const explanation = outcome.explanation!;
    const [kpi] = JSON.parse(explanation.kpisJson) as KpiExplanation[];
    // Terms that do not add up are kept as given, with the residual shown rather than scaled away.
    expect(kpi).toMatchObject({ kpi: 'Total', by: 'item', value: 4, terms: [{ term: 'b', value: 2.4 }, { term: 'a', value: 1.5 }], adds_up: false });
    expect(kpi!.residual).toBeCloseTo(0.1, 12);
    expect(explanation.infeasible).toBe(true);
    expect(explanation.violationCount).toBe(2);
    // Hard before soft.
    expect(unpackChunk(explanation.violationChunks[0]!).map((v) => v.severity)).toEqual(['hard', 'soft']);
  });

  it('says the terms add up when they do within the tolerance', async () => {
    const outcome = await run({ terms: { Total: { a: 1.5, b: 2.5 } } });
    if (outcome.status !== 'COMPLETE') throw new Error(outcome.message);
    expect(JSON.parse(outcome.explanation!.kpisJson)).toEqual([{ kpi: 'Total', by: 'item', value: 4, terms: [{ term: 'b', value: 2.5 }, { term: 'a', value: 1.5 }], residual: 0, tolerance: 1e-9, adds_up: true }]);
    expect(outcome.explanation!.infeasible).toBe(false);
  });

  it('stores nothing more for a run that explains nothing', async () => {
    const outcome = await run({});
    expect(outcome).toMatchObject({ status: 'COMPLETE' });
    expect(outcome.status === 'COMPLETE' && outcome.explanation).toBeUndefined();
  });

  it('fails the run naming the path of a row the dataset does not hold', async () => {
    const outcome = await failure({ violations: [{ constraint: 'c', severity: 'hard', amount: 1, rows: [{ table: 'items', key: 'a' }, { table: 'items', key: 'zz' }], message: 'm' }] });
    expect(outcome.code).toBe('ALGORITHM_ERROR');
    expect(outcome.message).toBe("algorithm 'Explaining': its explanation (ctx.explain) at /violations/0/rows/1/key: table 'items' has no row with key \"zz\"");
  });

  it('fails the run naming the path of a table the dataset does not have', async () => {
    const outcome = await failure({ violations: [{ constraint: 'c', severity: 'soft', amount: 1, rows: [{ table: 'notes', key: 0 }], message: 'm' }] });
    expect(outcome.message).toContain("at /violations/0/rows/0/table: the dataset has no table 'notes'");
  });

  it.each([
    [{ violations: [{ constraint: 'c', severity: 'fatal', amount: 1, rows: [], message: 'm' }] }, '/violations/0/severity'],
    [{ violations: [{ constraint: 'c', severity: 'hard', amount: '1', rows: [], message: 'm' }] }, '/violations/0/amount'],
    [{ violations: [{ constraint: 'c', severity: 'hard', amount: 1, rows: [{ table: 'items' }], message: 'm' }] }, '/violations/0/rows/0'],
    [{ violations: [{ constraint: 'c', severity: 'hard', amount: 1, rows: [], message: 'm', sevrity: 'x' }] }, '/violations/0'],
    [{ terms: { Total: { a: 'x' } } }, '/terms/Total/a'],
    [{ infeasible: 'yes' }, '/infeasible'],
    [[], 'its root'],
  ])('fails the run naming the path of a wrong shape: %j', async (explanation, path) => {
    const outcome = await failure(explanation);
    expect(outcome.code).toBe('ALGORITHM_ERROR');
    expect(outcome.message).toContain(`its explanation (ctx.explain) at ${path}`);
  });

  it('fails the run for terms of a KPI that is not the algorithm’s or declares no terms', async () => {
    expect((await failure({ terms: { Weight: { a: 1 } } })).message).toContain("at /terms/Weight: no KPI named 'Weight' applies to this algorithm");
    expect((await failure({ terms: { Count: { a: 1 } } })).message).toContain("at /terms/Count: KPI 'Count' declares no terms");
  });
});
