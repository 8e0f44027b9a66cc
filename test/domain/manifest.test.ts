import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadDomain } from '../../src/domain/load.js';
import { resultMismatch } from '../../src/executor/run/result-check.js';
import { resultTextFits } from '../../src/executor/run/result-text-check.js';

/**
 * A domain declared as a manifest (scenarist.domain.json): read into the same Domain a defineDomain
 * module exports, and every mistake in it refused at load with one line naming the file and the path.
 */

const root = mkdtempSync(join(tmpdir(), 'scenarist-manifest-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

type Json = Record<string, unknown>;

/** A sound manifest: one table, one program with two parameters, its KPI, a table, chart, metrics and text view. */
function manifest(): Json {
  return {
    name: 'shop',
    schemas: {
      orders: {
        description: 'one row per order',
        tables: {
          orders: {
            columns: {
              order_no: { type: 'string', primaryKey: true },
              amount: { type: 'float', unit: 'EUR' },
              note: { type: 'string', required: false, nullable: true },
            },
          },
        },
      },
    },
    resultTypes: {
      picking: {
        type: 'object',
        properties: {
          picked: { type: 'array', items: { type: 'object', properties: { label: { type: 'string' }, value: { type: 'number' } }, required: ['label', 'value'] } },
          total: { type: 'number', minimum: 0 },
          summary: { type: 'string' },
          mode: { enum: ['fast', 'slow'] },
          kpis: { type: 'object', properties: { 'Picked amount': { type: 'number' } }, required: ['Picked amount'] },
        },
        required: ['picked', 'total', 'kpis'],
        additionalProperties: false,
      },
    },
    algorithms: [
      {
        name: 'Top Rows',
        description: 'the largest orders',
        command: ['python3', './top_rows.py'],
        parameters: {
          count: { kind: 'integer', min: 1, default: 10 },
          mode: { kind: 'enum', choices: ['fast', 'slow'], default: 'fast' },
          seed: { kind: 'integer' },
        },
        seedParameter: 'seed',
        timeLimitMs: 60_000,
        result: 'picking',
      },
    ],
    kpis: [
      { name: 'Picked amount', unit: 'EUR', betterWhen: 'HIGHER', appliesTo: ['Top Rows'] },
      { name: 'Total', unit: 'EUR', betterWhen: 'AT_LEAST', threshold: 50, from: '/total', resultType: 'picking' },
    ],
    views: [
      { scope: 'result', name: 'picked', title: 'Picked', kind: 'table', rows: '/picked', columns: [{ name: 'label' }, { name: 'value', type: 'float' }], sort: { column: 'value', descending: true } },
      { scope: 'result', name: 'chart', title: 'Chart', kind: 'chart', values: '/picked', vegaLite: { mark: 'bar' } },
      { scope: 'result', name: 'numbers', title: 'Numbers', kind: 'metrics', items: [{ label: 'Total', from: '/total', unit: 'EUR', betterWhen: 'HIGHER' }] },
      { scope: 'result', name: 'summary', title: 'Summary', kind: 'text', markdown: '/summary' },
      { scope: 'dataset', name: 'orders', title: 'Orders', kind: 'table', table: 'orders', columns: [{ name: 'order_no' }, { name: 'amount' }] },
    ],
    seed: { datasetKey: 'sample', files: ['orders.csv'] },
  };
}

let count = 0;
/** Writes `content` as a manifest in a folder of its own (with the seed file), returning its path. */
function write(content: Json | string): string {
  const dir = join(root, `m${count++}`);
  mkdirSync(dir);
  writeFileSync(join(dir, 'orders.csv'), 'order_no,amount\nA-1,12.5\n');
  const file = join(dir, 'scenarist.domain.json');
  writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
  return file;
}

/** The message loading `changed` (a sound manifest, changed) gives, its path in front made `M`. */
async function problem(change: (m: Json) => void): Promise<string> {
  const m = manifest();
  change(m);
  const file = write(m);
  const err = await loadDomain(file).then(() => undefined, (e: unknown) => e as Error);
  if (err === undefined) return expect.fail('the manifest loaded');
  return err.message.replace(file, 'M');
}

const algorithm = (m: Json) => (m.algorithms as Json[])[0]!;
const params = (m: Json) => algorithm(m).parameters as Json;

describe('a domain manifest', () => {
  it('loads as the Domain a module would export: schemas, program, parameters, result type, KPIs, views, seed', async () => {
    const file = write(manifest());
    const domain = await loadDomain(file);
    expect(domain.name).toBe('shop');
    expect(domain.domain.schemas.orders?.tables.orders?.columns.amount).toEqual({ type: 'float', unit: 'EUR' });
    const topRows = domain.algorithm('Top Rows')!;
    expect(topRows).toMatchObject({ description: 'the largest orders', timeLimitMs: 60_000, seedParameter: 'seed', external: { command: ['python3', './top_rows.py'] } });
    expect(domain.parametersOf(topRows)).toEqual(manifest().algorithms && params(manifest()));
    expect(domain.kpiNames).toEqual(['Picked amount', 'Total']);
    expect(domain.kpisFor('Top Rows').map((k) => [k.name, k.unit, k.betterWhen, k.threshold])).toEqual([['Picked amount', 'EUR', 'HIGHER', undefined], ['Total', 'EUR', 'AT_LEAST', 50]]);
    expect(domain.domain.seed).toEqual({ datasetKey: 'sample', files: [join(file, '..', 'orders.csv')] });
    // The folder holding it names it too.
    expect((await loadDomain(join(file, '..'))).name).toBe('shop');
  });

  it('reads its KPIs from the result (by default its kpis member) and draws its views from it', async () => {
    const domain = await loadDomain(write(manifest()));
    const result = { picked: [{ label: 'A-1', value: 12.5 }, { label: 'A-2', value: 40 }], total: 52.5, summary: '**two**', kpis: { 'Picked amount': 52.5 } };
    expect(domain.kpisFor('Top Rows').map((kpi) => kpi.compute(result, undefined))).toEqual([52.5, 52.5]);
    expect(() => domain.kpisFor('Top Rows')[0]!.compute({ ...result, kpis: {} }, undefined)).toThrow('the result has no number at /kpis/Picked amount');
    const [table, chart, metrics, text] = domain.views.resultViewsFor('Top Rows');
    expect(table!.render(result, undefined)).toEqual({
      columns: [{ name: 'label' }, { name: 'value', type: 'float' }],
      rows: [['A-1', 12.5], ['A-2', 40]],
      sort: { column: 'value', descending: true },
    });
    expect(chart!.render(result, undefined)).toEqual({ vegaLite: { mark: 'bar', data: { values: result.picked } } });
    expect(metrics!.render(result, undefined)).toEqual({ items: [{ label: 'Total', unit: 'EUR', betterWhen: 'HIGHER', value: 52.5 }] });
    expect(text!.render(result, undefined)).toEqual({ markdown: '**two**' });
    expect(domain.views.firstResultTable('Top Rows')?.name).toBe('picked');
    const orders = domain.views.named('dataset', 'orders')!;
    expect(orders.scope === 'dataset' && orders.render({ tables: { orders: { rows: [{ order_no: 'A-1', amount: 12.5, note: null }] } } })).toEqual({
      columns: [{ name: 'order_no' }, { name: 'amount' }],
      rows: [['A-1', 12.5]],
    });
  });

  it('checks results against its JSON Schema as the service checks a TypeScript result type', async () => {
    const type = (await loadDomain(write(manifest()))).algorithm('Top Rows')!.result;
    const good = { picked: [{ label: 'A-1', value: 1 }], total: 1, mode: 'fast', kpis: { 'Picked amount': 1 } };
    expect(resultMismatch(type, good)).toBeUndefined();
    expect(resultTextFits(type, JSON.stringify(good))).toBe(true);
    expect(resultMismatch(type, { ...good, picked: [{ label: 'A-1', value: 'one' }] })).toBe('the result does not match result type "picking" at /picked/0/value: expected number');
    expect(resultMismatch(type, { ...good, total: -1 })).toMatch(/at \/total: expected number to be greater or equal to 0/);
    expect(resultMismatch(type, { ...good, mode: 'medium' })).toMatch(/at \/mode/);
    expect(resultMismatch(type, { ...good, extra: 1 })).toMatch(/at \/extra/);
    expect(resultMismatch(type, { picked: [], total: 0 })).toMatch(/at \/kpis/);
  });

  it('refuses each kind of mistake with one line naming the file and the path in it', async () => {
    const cases: [string, (m: Json) => void, string][] = [
      ['unknown top-level field', (m) => { m.algoritms = []; }, 'M: algoritms: unknown field (allowed here: $schema, name, description, schemas, resultTypes, resultKeys, algorithms, kpis, views, seed)'],
      ['no name', (m) => { delete m.name; }, 'M: name: is required'],
      ['a column of an unknown type', (m) => { ((m.schemas as Json).orders as { tables: { orders: { columns: Json } } }).tables.orders.columns.amount = { type: 'money' }; }, 'M: schemas.orders.tables.orders.columns.amount.type: must be one of string, integer, float, boolean, datetime, got "money"'],
      ['a parameter default of the wrong type', (m) => { params(m).count = { kind: 'integer', default: 1.5 }; }, 'M: algorithms[0].parameters.count.default: must be an integer, got 1.5'],
      ['a parameter of an unknown kind', (m) => { params(m).count = { kind: 'number' }; }, "M: algorithms[0].parameters.count: unknown kind \"number\" (known: integer, float, string, boolean, enum, multi_enum, time, interval)"],
      ['inconsistent bounds', (m) => { params(m).count = { kind: 'integer', min: 5, max: 1 }; }, 'M: algorithms[0].parameters.count: min (5) is greater than max (1)'],
      ['a misspelt parameter property', (m) => { params(m).count = { kind: 'integer', defualt: 1 }; }, "M: algorithms[0].parameters.count: unknown property 'defualt' for kind integer (allowed: kind, label, description, required, default, min, max)"],
      ['no command', (m) => { algorithm(m).command = []; }, 'M: algorithms[0].command: must name the program and its arguments (an argv array, no shell)'],
      ['an undeclared result type', (m) => { algorithm(m).result = 'pickng'; }, 'M: algorithms[0].result: names result type "pickng", which resultTypes does not declare (declared: picking)'],
      ['a bad time limit', (m) => { algorithm(m).timeLimitMs = 0; }, 'M: algorithms[0].timeLimitMs: must be a whole number of ms from 1 to'],
      ['a seed parameter with a default', (m) => { params(m).seed = { kind: 'integer', default: 1 }; }, 'M: algorithm "Top Rows" has seedParameter "seed", which is given a default'],
      ['two algorithms of one name', (m) => { m.algorithms = [algorithm(m), algorithm(m)]; }, 'M: algorithms[1].name: two algorithms are named "Top Rows"'],
      ['an unsupported result schema keyword', (m) => { (m.resultTypes as Json).picking = { type: 'string', format: 'email' }; }, 'M: resultTypes.picking.format: is not a keyword a result schema of type string may use'],
      ['a result schema without a type', (m) => { (m.resultTypes as Json).picking = { properties: {} }; }, 'M: resultTypes.picking: needs a "type"'],
      ['a KPI the result does not declare', (m) => { (m.kpis as Json[])[1]!.from = '/summary'; }, 'M: kpis[1].from: algorithm "Top Rows" returns result type "picking", which declares no number at /summary'],
      ['a KPI by default name the result lacks', (m) => { (m.kpis as Json[])[0]!.name = 'Cost'; }, 'M: kpis[0]: algorithm "Top Rows" returns result type "picking", which declares no number at /kpis/Cost'],
      ['a KPI of an unknown algorithm', (m) => { (m.kpis as Json[])[0]!.appliesTo = ['Bottom Rows']; }, 'M: kpis[0].appliesTo[0]: names algorithm "Bottom Rows", which is not in the manifest\'s algorithms'],
      ['a KPI with a bad betterWhen', (m) => { (m.kpis as Json[])[0]!.betterWhen = 'MORE'; }, 'M: kpis[0].betterWhen: must be one of HIGHER, LOWER, AT_LEAST, AT_MOST, got "MORE"'],
      ['a KPI pointer that is not one', (m) => { (m.kpis as Json[])[1]!.from = 'total'; }, 'M: kpis[1].from: must be a JSON Pointer into the result, such as "/total" or "/kpis/cost", got "total"'],
      ['a table view of no array', (m) => { (m.views as Json[])[0]!.rows = '/total'; }, 'M: views[0].rows: algorithm "Top Rows" returns result type "picking", which declares no array at /total'],
      ['a view of a kind that needs code', (m) => { (m.views as Json[])[0]!.scope = 'comparison'; }, 'M: views[0].scope: must be one of result, dataset, got "comparison"'],
      ['a dataset view of an unknown table', (m) => { (m.views as Json[])[4]!.table = 'order'; }, 'M: views[4].table: names "order", which is not a table of the manifest\'s schemas'],
      ['a view sorted by a column it lacks', (m) => { (m.views as Json[])[0]!.sort = { column: 'total' }; }, 'M: views[0].sort.column: names "total", which is not one of the view\'s columns'],
      ['a missing seed file', (m) => { m.seed = { datasetKey: 'sample', files: ['missing.csv'] }; }, 'M: seed.files[0]: no such file'],
    ];
    for (const [what, change, message] of cases) {
      expect(await problem(change), what).toContain(message);
      expect((await problem(change)).split('\n'), what).toHaveLength(1);
    }
    const broken = write('{\n  "name" "shop"\n}\n');
    await expect(loadDomain(broken)).rejects.toThrow(`${broken}: is not valid JSON: Expected ':' after property name at line 2, column 10`);
    const snippet = await loadDomain(write('{\n  "name": "shop",\n  "algorithms": [,]\n}\n')).then(() => '', (e: unknown) => (e as Error).message);
    expect(snippet).toMatch(/: is not valid JSON: Unexpected token/);
    expect(snippet.split('\n')).toHaveLength(1);
  });
});
