import { describe, expect, it } from 'vitest';
import { busy } from '../../../examples/warehouse/algorithms/diagnostics/busy.js';
import { fail } from '../../../examples/warehouse/algorithms/diagnostics/fail.js';
import { instant } from '../../../examples/warehouse/algorithms/diagnostics/instant.js';
import { parameterMatrix } from '../../../examples/warehouse/algorithms/diagnostics/parameter-matrix.js';
import { sleep } from '../../../examples/warehouse/algorithms/diagnostics/sleep.js';
import { reslotMoves } from '../../../examples/warehouse/kpis/reslot-moves.js';
import { travelDistance } from '../../../examples/warehouse/kpis/travel-distance.js';
import { zoneBalance } from '../../../examples/warehouse/kpis/zone-balance.js';
import { failingKpi } from '../../../examples/warehouse/kpis/failing-kpi.js';
import type { SlottingResult } from '../../../examples/warehouse/result.js';
import { fakeContext } from './fixtures.js';
import { sampleData } from './sample-data.js';

const kpis = [travelDistance, zoneBalance, reslotMoves];
const data = sampleData();
const kpiValues = (result: SlottingResult) => kpis.map((kpi) => kpi.compute(result, data));

describe('Instant', () => {
  it('returns at once a result for which every KPI is a finite number', async () => {
    const result = await instant.run(data, {}, fakeContext().ctx);
    expect(result).not.toBeNull();
    for (const value of kpiValues(result)) expect(Number.isFinite(value)).toBe(true);
  });
});

describe('Sleep', () => {
  it('waits about duration_ms, reporting increasing progress, then returns the as-is slotting', async () => {
    const { ctx, progress } = fakeContext();
    const started = performance.now();
    const result = await sleep.run(data, { duration_ms: 200 }, ctx);
    expect(performance.now() - started).toBeGreaterThanOrEqual(190);
    expect(progress.length).toBeGreaterThan(1);
    for (let i = 1; i < progress.length; i++) expect(progress[i]).toBeGreaterThanOrEqual(progress[i - 1]!);
    expect(progress.at(-1)).toBe(1);
    expect(result.assignments.length).toBeGreaterThan(0);
  });

  it('rejects within a second when aborted mid-sleep', async () => {
    const { ctx, controller } = fakeContext();
    const started = performance.now();
    const run = sleep.run(data, { duration_ms: 600_000 }, ctx);
    setTimeout(() => controller.abort(), 100);
    await expect(run).rejects.toMatchObject({ name: 'AbortError' });
    expect(performance.now() - started).toBeLessThan(1100);
  });

  it('returns at once for a zero duration', async () => {
    const result = await sleep.run(data, { duration_ms: 0 }, fakeContext().ctx);
    expect(result.unassigned).toBeDefined();
  });
});

describe('Busy', () => {
  it('computes for about duration_ms without returning a promise, reporting increasing progress', () => {
    const { ctx, progress } = fakeContext();
    const started = performance.now();
    // Twelve 50 ms bursts: a report before the end fails to show only if the thread is held off the
    // CPU for most of the run (under a loaded suite, one stall of 200 ms did that to a 200 ms run).
    const result = busy.run(data, { duration_ms: 600 }, ctx);
    const elapsed = performance.now() - started;
    expect(result).not.toBeInstanceOf(Promise);
    expect(elapsed).toBeGreaterThanOrEqual(600);
    expect(elapsed).toBeLessThan(1600);
    expect(progress.length).toBeGreaterThan(1);
    for (let i = 1; i < progress.length; i++) expect(progress[i]).toBeGreaterThanOrEqual(progress[i - 1]!);
    expect(progress.at(-1)).toBe(1);
  });

  it('throws an abort error at its next check once the signal fires', () => {
    const { ctx, progress } = fakeContext((_, controller) => controller.abort());
    const started = performance.now();
    expect(() => busy.run(data, { duration_ms: 600_000 }, ctx)).toThrow(expect.objectContaining({ name: 'AbortError' }));
    expect(progress).toHaveLength(1);
    expect(performance.now() - started).toBeLessThan(1000);
  });
});

describe('Fail', () => {
  const run = (mode: 'raise' | 'throw_string' | 'no_result' | 'kpi_error' | 'nan_kpi') => fail.run(data, { mode }, fakeContext().ctx);

  it('throws an Error in mode raise (the default)', () => {
    expect(fail.parameters.mode.default).toBe('raise');
    expect(() => run('raise')).toThrow(Error);
  });

  it('throws a string, not an Error, in mode throw_string', () => {
    let thrown: unknown;
    try {
      run('throw_string');
    } catch (err) {
      thrown = err;
    }
    expect(typeof thrown).toBe('string');
  });

  it('returns undefined in mode no_result', async () => {
    expect(await run('no_result')).toBeUndefined();
  });

  it('returns a result on which its KPI throws in mode kpi_error', async () => {
    const result = await run('kpi_error');
    expect(() => failingKpi.compute(result, data)).toThrow(/kpi_error/);
  });

  it('returns a result on which its KPI yields NaN in mode nan_kpi', async () => {
    expect(failingKpi.compute(await run('nan_kpi'), data)).toBeNaN();
  });
});

describe('Parameter Matrix', () => {
  const defaults = Object.fromEntries(Object.entries(parameterMatrix.parameters).map(([name, decl]) => [name, decl.default]));

  it('declares one parameter of each kind, each with a default', () => {
    const kinds = Object.values(parameterMatrix.parameters).map((decl) => decl.kind);
    expect(kinds.sort()).toEqual(['boolean', 'enum', 'float', 'integer', 'interval', 'multi_enum', 'string', 'time']);
    for (const value of Object.values(defaults)) expect(value).toBeDefined();
  });

  it('echoes the values it receives next to a slotting whose KPIs are finite', async () => {
    const params = {
      int_param: -3,
      float_param: 0.25,
      string_param: 'ünïcode',
      bool_param: false,
      enum_param: 'blue',
      multi_enum_param: ['west'],
      time_param: '23:59:59',
      interval_param: ['2025-01-01T00:00:00Z', '2025-02-01T00:00:00Z'],
    } as const;
    const result = await parameterMatrix.run(data, params, fakeContext().ctx);
    expect(result.echo).toEqual(params);
    expect(JSON.parse(JSON.stringify(result.echo))).toEqual(params);
    for (const value of kpiValues(result)) expect(Number.isFinite(value)).toBe(true);
  });
});
