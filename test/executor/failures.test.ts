import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, DIALECTS, type TestDatabase } from '../support/dialects.js';
import { startHarness, type Harness } from './harness.js';

describe.each(DIALECTS)('failed runs on %s', (dialect) => {
  let database: TestDatabase;
  let h: Harness;
  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    h = await startHarness(database, { workers: 2 });
  });
  afterAll(async () => {
    await h?.close();
    await database?.drop();
  });

  it.each([
    ['throws an Error', 'error', 'failed on purpose', 'ALGORITHM_ERROR'],
    ['throws a string', 'string', 'a thrown string', 'ALGORITHM_ERROR'],
    ['returns undefined', 'undefined', 'returned no result', 'ALGORITHM_ERROR'],
    ['returns null', 'null', 'returned no result', 'ALGORITHM_ERROR'],
    ['returns something that is not JSON', 'not-json', 'not JSON', 'ALGORITHM_ERROR'],
    ['returns a result a KPI cannot compute', 'kpi-throws', "KPI 'total' failed: total cannot be computed", 'KPI_ERROR'],
    ['returns a result whose KPI is NaN', 'kpi-nan', "KPI 'total' yielded NaN", 'KPI_ERROR'],
    ['returns a result whose KPI is infinite', 'kpi-infinite', "KPI 'total' yielded Infinity", 'KPI_ERROR'],
  ])('marks the scenario FAILED with a message when the algorithm %s', async (_label, mode, message, code) => {
    const session = await h.session();
    const ref = await h.start(session, { algoName: 'Fail', algoParams: { mode } });
    expect(await h.next('run:failed', ref)).toMatchObject({ code });
    const scenario = await h.scenarios.get(ref);
    expect(scenario.status).toBe('FAILED');
    expect(scenario.error?.message).toContain(message);
    expect(scenario.error?.code).toBe(code);
    // Only a KPI's failure keeps the algorithm's result (docs/api/runs.md).
    expect(scenario.result).toEqual(code === 'KPI_ERROR' ? { kpi: mode.slice('kpi-'.length) } : null);
    expect(Object.values(scenario.kpis).every((k) => k.value === null)).toBe(true);
    expect(scenario.finished_at).not.toBeNull();
  });

  it('logs the failure with its stack and the scenario and session ids', async () => {
    const session = await h.session();
    const ref = await h.start(session, { algoName: 'Fail', algoParams: { mode: 'error' } });
    await h.next('run:failed', ref);
    const line = h.logs.find((l) => l.scenario_id === ref.id && l.msg === 'scenario run failed');
    expect(line).toMatchObject({ session_id: session, error: 'failed on purpose' });
    expect(String(line?.stack)).toContain('failed on purpose');
    expect(String(line?.stack)).toContain('test-domain');
  });

  it('fails a run whose worker thread dies, and the next run of the session still completes', async () => {
    const session = await h.session();
    const dying = await h.start(session, { algoName: 'Fail', algoParams: { mode: 'exit-thread' } });
    const next = await h.start(session, { algoName: 'Sum' });
    await h.next('run:failed', dying);
    expect((await h.scenarios.get(dying)).error?.message).toContain('worker thread');
    await h.next('run:completed', next);
  });

  it('fails a run whose dataset is gone by the time it starts', async () => {
    const session = await h.session();
    const ref = await h.create(session, { algoName: 'Sum' });
    // Only possible behind the service's back (a dataset in use cannot be deleted through it).
    await h.store.db.deleteFrom('datasets').where('session_id', '=', session).execute();
    await h.scenarios.run(ref);
    await h.next('run:failed', ref);
    expect((await h.scenarios.get(ref)).error?.message).toContain("dataset 'items' no longer exists");
  });
});
