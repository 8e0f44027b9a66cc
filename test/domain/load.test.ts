import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, it } from 'vitest';
import { loadDomain } from '../../src/domain/load.js';

const defineUrl = pathToFileURL(join(process.cwd(), 'src/index.ts')).href;

function writeDomain(source: string): string {
  const dir = mkdtempSync(join(tmpdir(), 'scenarist-domain-'));
  const file = join(dir, 'domain.ts');
  writeFileSync(file, source);
  return file;
}

describe('loadDomain', () => {
  it('loads the bundled example by default with its algorithms and KPIs', async () => {
    const domain = await loadDomain('scenarist:example');
    expect(domain.algorithmNames).toEqual(
      expect.arrayContaining(['As-Is Slotting', 'Greedy Slotting', 'Simulated Annealing Slotting', 'Instant', 'Sleep', 'Busy', 'Fail', 'Parameter Matrix']),
    );
    expect(domain.kpiNames).toEqual(['Travel Distance', 'Zone Balance', 'Reslot Moves', 'Failing KPI']);
  });

  it('loads a TypeScript domain module from a file path written against the public API', async () => {
    const file = writeDomain(`
      import { defineDomain, defineAlgorithm, defineKpi, param } from '${defineUrl}';
      const echo = defineAlgorithm({ name: 'Echo unicode ü', parameters: { n: param.integer({ min: 0, default: 2 }) }, run: (_d, p) => ({ n: p.n }) });
      export default defineDomain({ name: 'tiny', schemas: {}, algorithms: [echo], kpis: [defineKpi({ name: 'N', unit: '', betterWhen: 'HIGHER', compute: (r: { n: number }) => r.n })] });
    `);
    const domain = await loadDomain(file);
    expect(domain.name).toBe('tiny');
    expect(domain.algorithm('Echo unicode ü')?.parameters).toHaveProperty('n');
  });

  it('rejects a module that is not a domain, and two algorithms of one name, with clear messages', async () => {
    await expect(loadDomain(writeDomain('export default { nothing: true };'))).rejects.toThrow(/defineDomain/);
    const twice = writeDomain(`
      import { defineDomain, defineAlgorithm } from '${defineUrl}';
      const a = defineAlgorithm({ name: 'A', parameters: {}, run: () => 1 });
      export default defineDomain({ name: 'dup', schemas: {}, algorithms: [a, a], kpis: [] });
    `);
    await expect(loadDomain(twice)).rejects.toThrow(/two algorithms are named "A"/);
    await expect(loadDomain('/no/such/domain.ts')).rejects.toThrow(/invalid setting domain/);
  });

  it('rejects an algorithm whose parameter declaration is inconsistent', async () => {
    const bad = writeDomain(`
      import { defineDomain, defineAlgorithm } from '${defineUrl}';
      const a = defineAlgorithm({ name: 'A', parameters: { n: { kind: 'integer', min: 5, max: 1 } }, run: () => 1 });
      export default defineDomain({ name: 'bad', schemas: {}, algorithms: [a], kpis: [] });
    `);
    await expect(loadDomain(bad)).rejects.toThrow(/min \(5\) is greater than max \(1\)/);
  });
});
