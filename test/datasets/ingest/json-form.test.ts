import { describe, expect, it } from 'vitest';
import { decodeDataset } from '../../../src/datasets/codec.js';
import { readJsonForm } from '../../../src/datasets/ingest/json-form.js';
import { ROWS_PER_PIECE, splitJsonForm } from '../../../src/datasets/ingest/json-form-split.js';
import { defineDomain } from '../../../src/domain/define.js';
import { DomainRegistry } from '../../../src/domain/registry.js';
import { ScenaristError } from '../../../src/errors.js';

/** A domain without a JSON form of its own: from-json reads the default form. */
const domain = new DomainRegistry(defineDomain({ name: 'plain', schemas: {}, algorithms: [], kpis: [] }));

const columns = [
  { name: 'sku', type: 'string' },
  { name: 'picks', type: 'float' },
  { name: 'count', type: 'integer' },
];

function rows(count: number): unknown[][] {
  return Array.from({ length: count }, (_, i) => [`SKU-"${i}",[x]\\`, i % 3 === 0 ? null : i * 1.5, i]);
}

function form(tables: Record<string, unknown>, extra: Record<string, unknown> = {}): string {
  return JSON.stringify({ key: 'copy', kind: 'master', created_at: '2026-01-02T03:04:05.000Z', ...extra, tables });
}

/** What the form stored before it was read in pieces: the whole text parsed, checked and written again. */
function wholeParse(text: string): string {
  return JSON.stringify(decodeDataset(JSON.parse(text)).tables);
}

function errorOf(text: string): string {
  try {
    readJsonForm(domain, text);
  } catch (err) {
    expect(err).toBeInstanceOf(ScenaristError);
    expect((err as ScenaristError).code).toMatch(/^(DATASET_FORM_INVALID|BODY_EMPTY|BODY_MALFORMED|BODY_TOO_DEEP)$/);
    return (err as Error).message;
  }
  throw new Error('expected a 400');
}

describe('reading a dataset’s JSON form a piece of rows at a time', () => {
  it('stores exactly what parsing the whole form stored, for tables of every size around a piece', () => {
    const sizes = [0, 1, ROWS_PER_PIECE - 1, ROWS_PER_PIECE, ROWS_PER_PIECE + 1, 2 * ROWS_PER_PIECE + 7];
    const text = form(Object.fromEntries(sizes.map((n) => [`t${n}`, { columns, rows: rows(n) }])));
    expect(splitJsonForm(text)?.rows.map((r) => r.table)).toEqual(sizes.map((n) => `t${n}`));
    const stored = readJsonForm(domain, text);
    expect(stored.tablesJson).toBe(wholeParse(text));
    expect(stored).toMatchObject({ key: 'copy', kind: 'master', createdAt: '2026-01-02T03:04:05.000Z' });
  });

  it('keeps keys in their order, extra keys of a table, and writes white space and numbers as JSON.stringify does', () => {
    const text = `{ "tables": { "b": { "rows": [ [ "x" , 1.50 ] ,\n [null, 2e1] ], "note": {"rows": [1]}, "columns": [{"name":"s","type":"string"},{"name":"n","type":"float"}] },
      "a\\u0022q": {"columns": [], "rows": []} }, "key": "k" }`;
    expect(splitJsonForm(text)?.rows.map((r) => r.table)).toEqual(['b', 'a"q']);
    expect(readJsonForm(domain, text).tablesJson).toBe(wholeParse(text));
    expect(readJsonForm(domain, text).tablesJson).toContain('"rows":[["x",1.5],[null,20]],"note":{"rows":[1]}');
  });

  it('numbers a bad row by its place in the table, in whichever piece it stands', () => {
    const table = rows(ROWS_PER_PIECE + 5);
    table[ROWS_PER_PIECE + 3]![2] = 1.5;
    expect(errorOf(form({ sku: { columns, rows: table } }))).toBe(
      `table "sku": row ${ROWS_PER_PIECE + 3}, column "count": number 1.5 is not a integer`,
    );
    const short = rows(ROWS_PER_PIECE * 2);
    short[ROWS_PER_PIECE * 2 - 1] = ['only one'];
    expect(errorOf(form({ sku: { columns, rows: short } }))).toBe(`table "sku": row ${ROWS_PER_PIECE * 2 - 1} must be an array of 3 values`);
  });

  it('answers a text that is not JSON with the parser’s own error, even where a row would also be wrong', () => {
    const text = form({ sku: { columns, rows: [['a', 'not a number', 1]] } });
    expect(errorOf(text.replace('"copy"', '"copy",,'))).toMatch(/^the request body is not valid JSON: /);
    expect(errorOf(text.replace('1]]', '1],]'))).toMatch(/^the request body is not valid JSON: /);
    // A wrong row in the first piece, a syntax error in the second: parsed whole, the syntax fails first.
    const table = rows(ROWS_PER_PIECE + 2);
    table[0]![1] = 'not a number';
    const twoPieces = form({ sku: { columns, rows: table } });
    expect(errorOf(twoPieces)).toMatch(/^table "sku": row 0, column "picks"/);
    expect(errorOf(`${twoPieces.slice(0, -5)}x${twoPieces.slice(-5)}`)).toMatch(/^the request body is not valid JSON: /);
  });

  it('rejects a trailing comma that falls exactly on a piece boundary', () => {
    const text = form({ sku: { columns, rows: rows(ROWS_PER_PIECE) } });
    const trailing = `${text.slice(0, text.lastIndexOf(']]'))}],]}}}`;
    expect(() => JSON.parse(trailing)).toThrow();
    expect(errorOf(trailing)).toMatch(/^the request body is not valid JSON: /);
  });

  it('parses a form whole when a key on the way to the rows repeats, keeping the last as JSON.parse does', () => {
    const first = { columns, rows: [['first', 1, 1]] };
    const last = { columns, rows: [['last', 2, 2]] };
    const repeatedTable = `{"key":"k","tables":{"t":${JSON.stringify(first)},"t":${JSON.stringify(last)}}}`;
    expect(splitJsonForm(repeatedTable)).toBeUndefined();
    expect(readJsonForm(domain, repeatedTable).tablesJson).toBe(JSON.stringify({ t: last }));
    const repeatedRows = `{"key":"k","tables":{"t":{"columns":${JSON.stringify(columns)},"rows":[["a",1,1]],"rows":[["b",2,2]]}}}`;
    expect(splitJsonForm(repeatedRows)).toBeUndefined();
    expect(readJsonForm(domain, repeatedRows).tablesJson).toContain('"rows":[["b",2,2]]');
  });

  it('gives the checks’ answers for forms of other shapes', () => {
    expect(errorOf('  \n')).toBe('the request body is empty; send the JSON form of a dataset');
    expect(errorOf('[1, 2]')).toBe('a dataset must be a JSON object with key and tables, got an array');
    expect(errorOf('{"key":"k","tables":{"t":{"columns":[],"rows":5}}}')).toBe('table "t": "rows" must be an array of arrays');
    expect(errorOf(`{"key":"k","tables":{"t":${'['.repeat(101)}${']'.repeat(101)}}}`)).toMatch(/nests deeper than 100 levels/);
    expect(errorOf(form({ t: { columns: [{ name: 'x', type: 'money' }], rows: [] } }))).toMatch(/has type "money"/);
  });
});
