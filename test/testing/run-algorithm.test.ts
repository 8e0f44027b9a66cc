import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import warehouse from '../../examples/warehouse/index.js';
import { DatasetFormatError } from '../../src/domain/format-error.js';
import type { Dataset } from '../../src/domain/dataset-model.js';
import { runAlgorithm, RunFailedError } from '../../src/testing/index.js';
import testDomain from '../fixtures/test-domain.js';

const sample = (file: string) => fileURLToPath(new URL(`../../examples/warehouse/sample/${file}`, import.meta.url));
const SAMPLE = [sample('sku_data.csv'), sample('warehouse_layout.csv')];

const items = (weights: readonly number[]): Dataset => ({
  key: 'items',
  kind: 'master',
  createdAt: '2024-01-01T00:00:00.000Z',
  tables: { items: { columns: [{ name: 'name', type: 'string' }, { name: 'weight', type: 'float' }], rows: weights.map((w, i) => [`i${i}`, w]) } },
});

describe('runAlgorithm', () => {
  it('runs an algorithm on files through the ETL, with the KPIs that apply to it', async () => {
    const run = await runAlgorithm(warehouse, 'Greedy Slotting', SAMPLE, { respect_zones: false });
    expect(run.result.assignments).toHaveLength(200);
    expect(Object.keys(run.kpis)).toEqual(['Travel Distance', 'Zone Balance', 'Reslot Moves']);
    expect(run.kpis['Reslot Moves']).toBeGreaterThan(0);
    expect(run.progress.at(-1)).toBe(1);
  });

  it('takes files in memory by name, and data parameters', async () => {
    const files = { 'sku_data.csv': readFileSync(SAMPLE[0]!, 'utf8'), 'warehouse_layout.csv': readFileSync(SAMPLE[1]!) };
    const run = await runAlgorithm(warehouse, 'As-Is Slotting', files, {}, { dataParams: { category: 'pet' } });
    expect(run.result.assignments.length + run.result.unassigned.length).toBeLessThan(200);
    expect(run.kpis['Reslot Moves']).toBe(0);
  });

  it('takes a dataset, fills parameter defaults and collects the log', async () => {
    const run = await runAlgorithm(testDomain, 'Sum', items([1.5, 2.5]), { offset: 2 });
    expect(run.result).toEqual({ total: 6, count: 2 });
    expect(run.kpis).toEqual({ total: 6, count: 2 });
    const scaled = await runAlgorithm(testDomain, 'Sum', items([1.5, 2.5]), {}, { dataParams: { scale: 2 } });
    expect(scaled.kpis.total).toBe(8);
  });

  it('rejects with the run error when the algorithm fails, keeping no result', async () => {
    const failure = await runAlgorithm(warehouse, 'Fail', SAMPLE, { mode: 'raise' }).catch((err: unknown) => err);
    expect(failure).toBeInstanceOf(RunFailedError);
    expect(failure).toMatchObject({ code: 'ALGORITHM_ERROR', message: 'Fail diagnostic: raised on purpose (mode raise)', result: undefined });
  });

  it('rejects with KPI_ERROR and the result when a KPI yields no number', async () => {
    const failure = await runAlgorithm(warehouse, 'Fail', SAMPLE, { mode: 'nan_kpi' }).catch((err: unknown) => err);
    expect(failure).toMatchObject({ code: 'KPI_ERROR', result: { kpi: 'nan' } });
    expect((failure as Error).message).toMatch(/Failing KPI/);
  });

  it('rejects an invalid parameter like the service does', async () => {
    // @ts-expect-error a mode the algorithm does not declare, on purpose
    const failure = await runAlgorithm(warehouse, 'Fail', SAMPLE, { mode: 'explode' }).catch((err: unknown) => err);
    expect(failure).toMatchObject({ code: 'ALGORITHM_ERROR', message: expect.stringMatching(/mode/) });
  });

  it('rejects files that fail the ETL, naming the problem', async () => {
    const failure = runAlgorithm(warehouse, 'Instant', { 'sku_data.csv': 'sku;daily_picks\nS1;x\n' });
    await expect(failure).rejects.toThrow(DatasetFormatError);
    await expect(failure).rejects.toThrow(/warehouse_layout|category/);
  });

  it('fails a run on a dataset lacking a table of the schema, naming it', async () => {
    const empty: Dataset = { key: 'empty', kind: 'master', createdAt: '2024-01-01T00:00:00.000Z', tables: {} };
    const failure = await runAlgorithm(testDomain, 'Sum', empty).catch((err: unknown) => err);
    expect(failure).toMatchObject({ code: 'ALGORITHM_ERROR', message: "dataset 'empty' has no table 'items', which the schema declares (its tables: none)" });
  });

  it('refuses an algorithm the domain lacks', async () => {
    // @ts-expect-error an unknown algorithm, on purpose
    await expect(runAlgorithm(testDomain, 'Nope', items([]))).rejects.toThrow(/has no algorithm 'Nope'/);
  });
});
