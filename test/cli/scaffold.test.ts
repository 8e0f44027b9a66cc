import { mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseInitArgs } from '../../src/cli/init.js';
import { inferSchemas, toSchemas, type InferredGroup } from '../../src/cli/scaffold/infer-schema.js';
import { runEtl } from '../../src/datasets/etl/index.js';
import { scaffold } from '../../src/cli/scaffold/scaffold.js';
import { schemasModule } from '../../src/cli/scaffold/templates-domain.js';
import { buildXlsx } from '../datasets/etl/support/xlsx-builder.js';

const root = mkdtempSync(join(tmpdir(), 'scenarist-scaffold-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function file(name: string, content: string | Buffer): string {
  const path = join(root, name);
  writeFileSync(path, content);
  return path;
}

const CSV = `order_no,customer,amount,quantity,paid,placed_at,note
A-1,Ada,12.50,3,yes,2024-01-31,
A-2,Bob,"7,25",1,no,2024-02-01T08:30:00Z,rush
A-3,Ada,100,12,true,2024-02-03,
`;

/** Column name -> "type[?][ key]" for compact assertions. */
function shape(groups: readonly InferredGroup[], table: string): Record<string, string> {
  const found = groups.flatMap((g) => g.tables).find((t) => t.name === table);
  if (!found) return expect.fail(`no table ${table}`);
  return Object.fromEntries(found.columns.map((c) => [c.name, `${c.type}${c.nullable ? '?' : ''}${c.primaryKey ? ' key' : ''}`]));
}

describe('schema inference with the ETL readers', () => {
  it('infers column types, nullability and a key candidate from a CSV file', async () => {
    const { groups, notes } = await inferSchemas([{ name: 'orders.csv', data: readFileSync(file('orders.csv', CSV)) }]);
    expect(groups.map((g) => [g.name, g.file, g.tables.map((t) => [t.name, t.rows])])).toEqual([['orders', 'orders.csv', [['orders', 3]]]]);
    expect(shape(groups, 'orders')).toEqual({
      order_no: 'string key',
      customer: 'string',
      amount: 'float',
      quantity: 'integer',
      paid: 'boolean',
      placed_at: 'datetime',
      note: 'string?',
    });
    expect(notes).toEqual([]);
  });

  it('prefers a key-like name for the primary key, and none when no column is unique', async () => {
    const keyed = await inferSchemas([{ name: 'items.csv', data: Buffer.from('label,item_id\nx,1\ny,2\n') }]);
    expect(shape(keyed.groups, 'items')).toEqual({ label: 'string', item_id: 'integer key' });
    const none = await inferSchemas([{ name: 'pairs.csv', data: Buffer.from('a,b\n1,x\n1,x\n') }]);
    expect(shape(none.groups, 'pairs')).toEqual({ a: 'integer', b: 'string' });
  });

  it('reads a JSON object as one table per array, and leaves out nested values with a note', async () => {
    const json = JSON.stringify({
      stores: [{ id: 1, city: 'Lyon', open: true, meta: { a: 1 } }, { id: 2, city: 'Oslo', open: false, meta: null }],
      staff: [{ name: 'Eve', store: 1, rate: 1.5 }, { name: 'Dan', store: 2, rate: null }],
    });
    const { groups, notes } = await inferSchemas([{ name: 'chain.json', data: Buffer.from(json) }]);
    expect(shape(groups, 'stores')).toEqual({ id: 'integer key', city: 'string', open: 'boolean' });
    expect(shape(groups, 'staff')).toEqual({ name: 'string key', store: 'integer', rate: 'float?' });
    expect(notes).toEqual(["chain.json: column 'meta' of table 'stores' left out: it holds a nested object"]);
  });

  it('reads arrays of records nested in JSON records as child tables linked by the parent key, which the upload then reads', async () => {
    const json = JSON.stringify([
      { order_no: 'A-1', lines: [{ sku: 'x', qty: 2 }, { sku: 'y', qty: 2 }], tags: ['rush'] },
      { order_no: 'A-2', lines: [{ sku: 'x', qty: 5 }], tags: [] },
      { order_no: 'A-3', lines: null, tags: null },
    ]);
    const { groups, notes } = await inferSchemas([{ name: 'orders.json', data: Buffer.from(json) }]);
    expect(groups[0]!.tables.map((t) => t.name)).toEqual(['orders', 'lines']);
    expect(shape(groups, 'orders')).toEqual({ order_no: 'string key' });
    expect(shape(groups, 'lines')).toEqual({ sku: 'string', qty: 'integer', orders_order_no: 'string' });
    expect(groups[0]!.tables[1]!.parent).toEqual({ table: 'orders', field: 'lines', foreignKey: 'orders_order_no' });
    expect(notes).toEqual([
      "orders.json: column 'tags' of table 'orders' left out: it holds a nested array",
      "orders.json: the records nested under 'lines' of table 'orders' become table 'lines', linked by its column 'orders_order_no'",
    ]);
    // The schema written is one the same file passes on upload: 3 orders, 3 lines, each with its order.
    const outcome = await runEtl(toSchemas(groups), [{ filename: 'orders.json', data: Buffer.from(json) }]);
    expect(outcome.success, JSON.stringify(outcome.messages)).toBe(true);
    const lines = outcome.success ? outcome.tables.lines! : undefined;
    expect(lines?.rows.length).toBe(3);
    expect(schemasModule(groups)).toContain("        parent: { table: 'orders', field: 'lines', foreignKey: 'orders_order_no' },");
  });

  it('reads a workbook as one table per sheet, or a single sheet as the table named after the file', async () => {
    const multi = buildXlsx({
      zones: [['zone', 'area'], ['N', 120.5], ['S', 80]],
      shifts: [['shift', 'starts'], ['early', new Date(Date.UTC(2024, 0, 1, 6))], ['late', new Date(Date.UTC(2024, 0, 1, 14))]],
    });
    const single = buildXlsx({ Sheet1: [['code', 'count'], ['a', 1], ['b', null]] });
    const { groups } = await inferSchemas([{ name: 'site.xlsx', data: multi }, { name: 'stock.xlsx', data: single }]);
    expect(groups.map((g) => g.tables.map((t) => t.name))).toEqual([['zones', 'shifts'], ['stock']]);
    expect(shape(groups, 'zones')).toEqual({ zone: 'string key', area: 'float' });
    expect(shape(groups, 'shifts')).toEqual({ shift: 'string key', starts: 'datetime' });
    expect(shape(groups, 'stock')).toEqual({ code: 'string key', count: 'integer?' });
  });

  it('rejects unreadable files and clashing names with a message naming the file', async () => {
    await expect(inferSchemas([{ name: 'bad.json', data: Buffer.from('{ nope') }])).rejects.toThrow(/bad\.json: not valid JSON/);
    await expect(inferSchemas([{ name: 'scalar.json', data: Buffer.from('42') }])).rejects.toThrow(/scalar\.json: expected an array of records/);
    await expect(inferSchemas([{ name: 'fake.xlsx', data: Buffer.from('not a zip') }])).rejects.toThrow(/fake\.xlsx/);
    await expect(inferSchemas([{ name: 'notes.txt', data: Buffer.from('x') }])).rejects.toThrow(/unsupported extension/);
    await expect(inferSchemas([{ name: 'a.csv', data: Buffer.from('x\n1\n') }, { name: 'A.json', data: Buffer.from('[{"x":1}]') }]))
      .rejects.toThrow(/two data files are named 'A'/);
  });
});

describe('scenarist init (scaffold)', () => {
  it('writes a project whose schemas.ts is the inferred schema as code, and whose test expects real values', async () => {
    const csv = file('orders.csv', CSV);
    const dir = join(root, 'shop');
    const result = await scaffold({ dir, dataFiles: [csv] });
    expect(result.files).toEqual(expect.arrayContaining(['package.json', '.npmrc', 'tsconfig.json', 'domain.ts', 'schemas.ts', 'algorithms/top-rows.ts',
      'kpis/picked-total.ts', 'views/picked.ts', 'test/top-rows.test.ts', 'sample/orders.csv', 'README.md']));
    const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Record<string, Record<string, string> | string>;
    expect(pkg.type).toBe('module');
    expect(pkg.dependencies).toEqual({ scenarist: `file:${process.cwd()}` });
    expect(Object.keys(pkg.devDependencies as object).sort()).toEqual(['@types/node', 'tsx', 'typescript']);
    // npm would otherwise run the linked checkout's `prepare` (its whole build) on every install.
    expect(readFileSync(join(dir, '.npmrc'), 'utf8')).toMatch(/^ignore-scripts=true$/m);
    const schemas = readFileSync(join(dir, 'schemas.ts'), 'utf8');
    expect(schemas).toContain(`      // 3 rows in orders.csv
      orders: {
        columns: {
          order_no: { type: 'string', primaryKey: true },
          customer: { type: 'string' },
          amount: { type: 'float' },
          quantity: { type: 'integer' },
          paid: { type: 'boolean' },
          placed_at: { type: 'datetime' },
          note: { type: 'string', nullable: true },
        },`);
    expect(schemas).toContain('export const schemas = defineSchemas({');
    expect(schemas).toContain('export type Data = DatasetOf<typeof schemas>;');
    // The algorithm reads typed rows, and the KPI measures it through appliesTo.
    expect(readFileSync(join(dir, 'algorithms/top-rows.ts'), 'utf8')).toContain("topRows(data.tables['orders'].rows, params.count)");
    expect(readFileSync(join(dir, 'kpis/picked-total.ts'), 'utf8')).toContain('appliesTo: [topRowsAlgorithm],');
    // One result table view (the CSV/XLSX export) and one chart, both typed by appliesTo and in the domain.
    const views = readFileSync(join(dir, 'views/picked.ts'), 'utf8');
    expect(views.match(/kind: '(table|chart)'/g)).toEqual(["kind: 'table'", "kind: 'chart'"]);
    expect(views).toContain("{ name: 'value', label: 'amount', type: 'float', format: ',.2f' },");
    expect(readFileSync(join(dir, 'domain.ts'), 'utf8')).toContain('views: [pickedTable, pickedChart],');
    expect(readFileSync(join(dir, 'algorithms/top-rows.ts'), 'utf8')).not.toContain('resultTable');
    // The algorithm ranks by the first numeric non-key column (amount: 100, 12.5, 7.25), the test expects the top 2.
    const unitTest = readFileSync(join(dir, 'test/top-rows.test.ts'), 'utf8');
    expect(unitTest).toContain("{ order_no: 'A-2', amount: 7.25 },");
    expect(unitTest).toContain("assert.equal(result.picked[0]?.label, 'A-3');");
    expect(unitTest).toContain('assert.equal(result.total, 112.5);');
    expect(readFileSync(join(dir, 'domain.ts'), 'utf8')).toContain("seed: { datasetKey: 'sample', files: [sample('orders.csv')] }");
    expect(readFileSync(join(dir, 'sample/orders.csv'), 'utf8')).toBe(CSV);
  });

  it('writes the CI example and explains it in the README: what ci/gate.sh runs and what each exit code means', async () => {
    const dir = join(root, 'with-ci');
    const result = await scaffold({ dir, dataFiles: [] });
    expect(result.files).toEqual(expect.arrayContaining(['ci/gate.json', 'ci/gate.sh']));
    const gate = JSON.parse(readFileSync(join(dir, 'ci/gate.json'), 'utf8')) as { repeats: number; baseline: { algo_name: string } };
    expect(readFileSync(join(dir, 'ci/gate.sh'), 'utf8')).toContain('scenarist gate ci/gate.json');
    const readme = readFileSync(join(dir, 'README.md'), 'utf8');
    expect(readme).toContain('## Is a change better? The acceptance gate in `ci/`');
    expect(readme).toContain('`ci/gate.sh` runs an acceptance gate, `ci/gate.json`');
    expect(readme).toContain(`each run ${gate.repeats} times on the sample data`);
    expect(readme).toContain(`(${gate.baseline.algo_name} picking 10 rows)`);
    for (const [code, verdict] of [['0', 'pass'], ['1', 'fail'], ['2', 'inconclusive'], ['3', 'bad input']]) expect(readme).toMatch(new RegExp(`^\\| ${code} \\| ${verdict}`, 'm'));
    expect(readme).toContain('`sh ci/gate.sh` fails unless the candidate passes');
  });

  it('uses a built-in sample table without --from-data', async () => {
    const dir = join(root, 'plain');
    const result = await scaffold({ dir, dataFiles: [] });
    expect(result.plan).toMatchObject({ table: 'products', measure: { name: 'unit_price', type: 'float' }, label: { name: 'product_id' } });
    expect(existsSync(join(dir, 'sample/products.csv'))).toBe(true);
  });

  it('refuses a non-empty directory and writes nothing for a bad data file', async () => {
    const used = join(root, 'used');
    await scaffold({ dir: used, dataFiles: [] });
    await expect(scaffold({ dir: used, dataFiles: [] })).rejects.toThrow(/is not empty/);
    await expect(scaffold({ dir: join(used, 'package.json'), dataFiles: [] })).rejects.toThrow(/is a file/);
    const fresh = join(root, 'fresh');
    await expect(scaffold({ dir: fresh, dataFiles: [file('broken.json', '[1, 2')] })).rejects.toThrow(/broken\.json: not valid JSON/);
    expect(existsSync(fresh)).toBe(false);
    await expect(scaffold({ dir: fresh, dataFiles: [join(root, 'missing.csv')] })).rejects.toThrow(/cannot read data file .*missing\.csv: ENOENT/);
  });

  it('parses its arguments: one directory, files after --from-data', () => {
    expect(parseInitArgs(['p', '--from-data', 'a.csv', 'b.json', '--from-data=c.xlsx'])).toEqual({ dir: 'p', dataFiles: ['a.csv', 'b.json', 'c.xlsx'], language: 'typescript', help: false });
    expect(parseInitArgs(['--help']).help).toBe(true);
    expect(() => parseInitArgs(['p', 'q'])).toThrow(/one project directory/);
    expect(() => parseInitArgs(['p', '--from-data'])).toThrow(/needs at least one file/);
    expect(() => parseInitArgs(['p', '--force'])).toThrow(/unknown flag/);
  });
});
