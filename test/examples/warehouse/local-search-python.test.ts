import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import domain from '../../../examples/warehouse/index.js';
import { runAlgorithm } from '../../../src/testing/run-algorithm.js';

/** The example's Python algorithm, run as the service runs it (a real python3 process), on the sample files. */

const EXAMPLE_DIR = fileURLToPath(new URL('../../../examples/warehouse/', import.meta.url));
const SAMPLE = ['sku_data.csv', 'warehouse_layout.csv'].map((file) => `${EXAMPLE_DIR}sample/${file}`);

describe('Local Search (Python)', () => {
  it('returns a slotting result no worse than today\'s slots, with the slotting KPIs and live progress', async () => {
    const python = await runAlgorithm(domain, 'Local Search (Python)', SAMPLE, { iterations: 5000 }, { domainDir: EXAMPLE_DIR, seed: 7 });
    const asIs = await runAlgorithm(domain, 'As-Is Slotting', SAMPLE, {}, { domainDir: EXAMPLE_DIR });
    expect(Object.keys(python.kpis).sort()).toEqual(Object.keys(asIs.kpis).sort());
    expect(python.kpis['Travel Distance']).toBeLessThanOrEqual(asIs.kpis['Travel Distance']!);
    const skus = python.result.assignments.map((a) => a.sku);
    expect(new Set(skus).size).toBe(skus.length);
    expect(python.progress.length).toBeGreaterThan(2);
    expect(python.log.some((line) => line.message.startsWith('start: '))).toBe(true);
  });

  it('repeats its run exactly from the same seed', async () => {
    const run = () => runAlgorithm(domain, 'Local Search (Python)', SAMPLE, { iterations: 2000 }, { domainDir: EXAMPLE_DIR, seed: 11 });
    expect((await run()).result).toEqual((await run()).result);
  });
});
