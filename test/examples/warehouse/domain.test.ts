import { existsSync } from 'node:fs';
import { basename } from 'node:path';
import { describe, expect, it } from 'vitest';
import warehouse from '../../../examples/warehouse/index.js';
import { DomainRegistry } from '../../../src/domain/registry.js';
import type { ParamDecl } from '../../../src/params/kinds.js';

describe('the warehouse example domain', () => {
  it('registers the slotting and diagnostic algorithms under their published names', () => {
    expect(warehouse.algorithms.map((a) => a.name)).toEqual([
      'As-Is Slotting',
      'Greedy Slotting',
      'Simulated Annealing Slotting',
      'Local Search (Python)',
      'Instant',
      'Sleep',
      'Busy',
      'Fail',
      'Parameter Matrix',
    ]);
  });

  it('registers its three slotting KPIs and the diagnostic one of Fail', () => {
    expect(warehouse.kpis.map((k) => [k.name, k.unit, k.betterWhen])).toEqual([
      ['Travel Distance', 'm', 'LOWER'],
      ['Zone Balance', '%', 'HIGHER'],
      ['Reslot Moves', 'moves', 'LOWER'],
      ['Failing KPI', '', 'LOWER'],
    ]);
  });

  it('measures every algorithm returning a slotting by the slotting KPIs, and Fail by its own KPI only', () => {
    const registry = new DomainRegistry(warehouse);
    const slottingKpis = ['Travel Distance', 'Zone Balance', 'Reslot Moves'];
    for (const name of registry.algorithmNames.filter((n) => n !== 'Fail')) {
      expect(registry.kpisFor(name).map((k) => k.name), name).toEqual(slottingKpis);
    }
    expect(registry.kpisFor('Fail').map((k) => k.name)).toEqual(['Failing KPI']);
  });

  it('seeds the example dataset from sample files named after its schema groups', () => {
    expect(warehouse.seed?.datasetKey).toBe('example');
    const files = warehouse.seed?.files ?? [];
    expect(files.map((file) => basename(file))).toEqual(['sku_data.csv', 'warehouse_layout.csv']);
    for (const file of files) expect(existsSync(file)).toBe(true);
    expect(Object.keys(warehouse.schemas).sort()).toEqual(['sku_data', 'warehouse_layout']);
  });

  it('declares a default for every parameter but a seed parameter (unset, each run takes its own seed), so each algorithm runs with none given', () => {
    for (const algorithm of warehouse.algorithms) {
      for (const [name, decl] of Object.entries<ParamDecl>(algorithm.parameters)) {
        if (name !== algorithm.seedParameter) expect(decl.default, `${algorithm.name}: ${name}`).toBeDefined();
      }
    }
  });

  it('passes the checks the service applies when it loads a domain', () => {
    expect(() => new DomainRegistry(warehouse)).not.toThrow();
  });
});
