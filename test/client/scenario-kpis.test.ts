import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { storeKpiValues } from '../../src/store/scenario-kpis.js';
import { DIALECTS } from '../support/dialects.js';
import { useTestStore } from '../support/test-store.js';

describe.each(DIALECTS)('the indexed KPI values on %s', (dialect) => {
  const store = useTestStore(dialect);

  it('replaces the values of an earlier run and goes with its scenario', async () => {
    const sessionId = randomUUID();
    await store().db.insertInto('sessions').values({ id: sessionId, display_name: 'kpis', created_at: new Date().toISOString() }).execute();
    await store().datasets.put({ sessionId, key: 'd', kind: 'master', createdAt: '', version: 'v', tablesJson: '{}' });
    const scenario = await store().scenarios.insert({
      id: randomUUID(),
      sessionId,
      tag: 't',
      datasetKey: 'd',
      algoName: 'A',
      algoParamsJson: '{}',
      dataParamsJson: '{}',
      createdAt: new Date().toISOString(),
    });
    if (!scenario) throw new Error('the scenario was not inserted');
    const rows = () => store().db.selectFrom('scenario_kpis').select(['name', 'value', 'session_id']).orderBy('name').execute();
    await storeKpiValues(store().db, scenario.id, { a: 1.5, b: -2 });
    expect(await rows()).toEqual([
      { name: 'a', value: 1.5, session_id: sessionId },
      { name: 'b', value: -2, session_id: sessionId },
    ]);
    await storeKpiValues(store().db, scenario.id, { a: 3, b: 0.25 });
    expect((await rows()).map((r) => [r.name, r.value])).toEqual([
      ['a', 3],
      ['b', 0.25],
    ]);
    // A run whose scenario is gone writes nothing.
    await storeKpiValues(store().db, 'no such scenario', { a: 1 });
    expect(await rows()).toHaveLength(2);
    await store().scenarios.delete({ sessionId, id: scenario.id });
    expect(await rows()).toEqual([]);
  });
});
