import { describe, expect, it } from 'vitest';
import { labelledParameters } from '../../src/decisions/parameter-labels.js';
import { defineAlgorithm, defineDataSource, defineDomain } from '../../src/domain/define.js';
import { DomainRegistry } from '../../src/domain/registry.js';

const placed = defineAlgorithm({
  name: 'Placed',
  parameters: { depot_x: { kind: 'float', default: 0, label: 'Depot X (m)' }, max_moves: { kind: 'integer', default: 10 } },
  run: () => ({}),
});
const relabelled = defineAlgorithm({ name: 'Relabelled', parameters: { depot_x: { kind: 'float', default: 0, label: 'Start X' } }, run: () => ({}) });
const dataSource = defineDataSource({ parameters: { min_picks: { kind: 'float', default: 0, label: 'Fewest picks a day' } }, prepare: (dataset) => dataset });
const domain = new DomainRegistry(defineDomain({ name: 'labels', schemas: {}, dataSource, algorithms: [placed, relabelled], kpis: [] }));
const row = (name: string) => ({ name, values: [{ scenario_id: 'a', value: 1 }], differs: false });

describe('the labels a report freezes beside its parameters', () => {
  it('are the declared ones, a data parameter by its own declaration, else the name humanised; the rest of each row kept', () => {
    const rows = [row('depot_x'), row('max_moves'), row('data_params.min_picks'), row('data_params.gone_since'), row('no_longer_declared')];
    expect(labelledParameters(rows, [{ algoName: 'Placed' }], domain)).toEqual([
      { ...row('depot_x'), label: 'Depot X (m)' },
      { ...row('max_moves'), label: 'Max moves' },
      { ...row('data_params.min_picks'), label: 'Fewest picks a day' },
      { ...row('data_params.gone_since'), label: 'Gone since' },
      { ...row('no_longer_declared'), label: 'No longer declared' },
    ]);
  });

  it("take the first compared scenario's declaration when two algorithms label one name differently, and skip an algorithm the domain lost", () => {
    const compared = [{ algoName: 'Removed' }, { algoName: 'Relabelled' }, { algoName: 'Placed' }];
    expect(labelledParameters([row('depot_x')], compared, domain)[0]!.label).toBe('Start X');
  });
});
