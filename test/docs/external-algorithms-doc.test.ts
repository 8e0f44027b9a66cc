import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Type } from '@sinclair/typebox';
import { afterAll, describe, expect, it } from 'vitest';
import { defineDomain, defineExternalAlgorithm, defineKpi, defineResultType, defineSchemas } from '../../src/domain/define.js';
import { loadDomain } from '../../src/domain/load.js';
import { runAlgorithm } from '../../src/testing/run-algorithm.js';

/**
 * The two complete programs of docs/external-algorithms.md, taken from the page as they are written and
 * run under the contract: a reader who copies them gets a working algorithm.
 */

const PAGE = readFileSync(fileURLToPath(new URL('../../docs/external-algorithms.md', import.meta.url)), 'utf8');

/** The code block whose first line is `firstLine`. */
function block(firstLine: string): string {
  const match = new RegExp('```\\w+\\n(' + firstLine.replace(/[.*+?^${}()|[\]\\]/g, '\\$&') + '\\n[\\s\\S]*?)```').exec(PAGE);
  if (!match) throw new Error(`docs/external-algorithms.md has no code block starting with ${firstLine}`);
  return match[1]!;
}

const dir = mkdtempSync(join(tmpdir(), 'scenarist-doc-programs-'));
writeFileSync(join(dir, 'pack.py'), block('# pack.py'));
writeFileSync(join(dir, 'pack.mjs'), block('// pack.mjs'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const schemas = defineSchemas({
  items: { tables: { items: { columns: { name: { type: 'string', primaryKey: true }, weight: { type: 'float' } } } } },
});
const packing = defineResultType('packing', Type.Object({ chosen: Type.Array(Type.String()), weight: Type.Number() }));
const parameters = { capacity: { kind: 'float', min: 0, default: 10 } } as const;
const python = defineExternalAlgorithm({ name: 'Pack (Python)', parameters, result: packing, external: { command: ['python3', './pack.py'] } });
const node = defineExternalAlgorithm({ name: 'Pack (Node.js)', parameters, result: packing, external: { command: ['node', './pack.mjs'] } });
const packed = defineKpi({ name: 'Packed Weight', unit: 'kg', betterWhen: 'HIGHER', appliesTo: packing, compute: (result) => result.weight });
const domain = defineDomain({ name: 'packing', schemas, algorithms: [python, node], kpis: [packed] });

const files = { 'items.csv': 'name,weight\na,6\nb,5\nc,4\nd,1\n' };

describe('the example programs of docs/external-algorithms.md', () => {
  it.each(['Pack (Python)', 'Pack (Node.js)'] as const)('%s packs the heaviest items up to the capacity, with progress and a log line', async (name) => {
    const run = await runAlgorithm(domain, name, files, { capacity: 8 }, { domainDir: dir });
    expect(run.result).toEqual({ chosen: ['a', 'd'], weight: 7 });
    expect(run.kpis).toEqual({ 'Packed Weight': 7 });
    expect(run.progress).toEqual([0.25, 0.5, 0.75, 1]);
    expect(run.log.map((line) => line.message)).toEqual(['packed 2 of 4 items']);
  });
});

/** The manifest of the page's "A domain without TypeScript" section, as written there. */
const MANIFEST = /```json\n(\{\n {2}"name": "packing"[\s\S]*?)```/.exec(PAGE)?.[1];

describe('the manifest of docs/external-algorithms.md', () => {
  it('loads, runs pack.py to the same result and KPI, and its documented mistakes give the documented messages', async () => {
    expect(MANIFEST).toBeDefined();
    const file = join(dir, 'scenarist.domain.json');
    writeFileSync(file, MANIFEST!);
    const manifestDomain = await loadDomain(file);
    // A domain loaded from a manifest is typed only at run time: its parameters have no static type.
    const run = await runAlgorithm(manifestDomain.domain, 'Pack (Python)', files, { capacity: 8 } as never, { domainDir: dir });
    expect(run.result).toEqual({ chosen: ['a', 'd'], weight: 7 });
    expect(run.kpis).toEqual({ 'Packed Weight': 7 });

    const documented = [...PAGE.matchAll(/^scenarist: \.\/scenarist\.domain\.json: (.*)$/gm)].map((match) => match[1]!);
    expect(documented).toHaveLength(2);
    const wrongDefault = JSON.parse(MANIFEST!) as { algorithms: { parameters: { capacity: { default: unknown } } }[]; kpis: { from: string }[] };
    wrongDefault.algorithms[0]!.parameters.capacity.default = '10';
    writeFileSync(file, JSON.stringify(wrongDefault));
    await expect(loadDomain(file)).rejects.toThrow(`${file}: ${documented[0]}`);
    const wrongPointer = JSON.parse(MANIFEST!) as typeof wrongDefault;
    wrongPointer.kpis[0]!.from = '/weigth';
    writeFileSync(file, JSON.stringify(wrongPointer));
    await expect(loadDomain(file)).rejects.toThrow(`${file}: ${documented[1]}`);
  });
});
