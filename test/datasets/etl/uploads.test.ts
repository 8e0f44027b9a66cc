import { describe, expect, it } from 'vitest';
import { EtlInputError, runEtl } from '../../../src/datasets/etl/index.js';
import type { Schemas } from '../../../src/domain/dataset-schema.js';
import { errors, expectFailure, expectInputError, expectSuccess, records, SCHEMAS, upload } from './support/fixtures.js';

const ITEMS = 'id,qty,price\nA,1,1.5\n';

describe('uploads and schema groups', () => {
  it('rejects a request without files as bad input', async () => {
    await expectInputError(SCHEMAS, [], /no file uploaded/);
  });

  it('rejects a file with an empty filename as bad input', async () => {
    await expectInputError(SCHEMAS, [upload('', ITEMS)], /has no filename/);
    await expectInputError(SCHEMAS, [upload('   ', ITEMS)], /has no filename/);
  });

  it('rejects an unsupported extension naming the file', async () => {
    const error = await expectInputError(SCHEMAS, [upload('items.txt', ITEMS)], /'items\.txt'.*unsupported extension '\.txt'/);
    expect(error.file).toBe('items.txt');
    await expectInputError(SCHEMAS, [upload('items', ITEMS)], /'items'.*no extension/);
    await expectInputError(SCHEMAS, [upload('items.csv.exe', ITEMS)], /unsupported extension '\.exe'/);
  });

  it('rejects a name with nothing before its extension', async () => {
    await expectInputError(SCHEMAS, [upload('.csv', ITEMS)], /nothing before its extension/);
    await expectInputError(SCHEMAS, [upload('dir/.csv', ITEMS)], /nothing before its extension/);
  });

  it('checks every name before reading any file, so a bad name wins over a bad file', async () => {
    await expectInputError(SCHEMAS, [upload('items.csv', Buffer.alloc(0)), upload('x.pdf', 'x')], /unsupported extension/);
  });

  it('accepts extensions in any case', async () => {
    for (const name of ['items.CSV', 'items.Csv']) {
      const outcome = await expectSuccess(SCHEMAS, [upload(name, ITEMS)]);
      expect(records(outcome.tables.items)).toEqual([{ id: 'A', qty: 1, price: 1.5, active: true, added: null }]);
    }
  });

  it('uses only the base name, so ../../items.csv and C:\\data\\items.csv fill group items', async () => {
    for (const name of ['../../items.csv', 'C:\\data\\items.csv', '/etc/../items.csv']) {
      const outcome = await expectSuccess(SCHEMAS, [upload(name, ITEMS)]);
      expect(outcome.tables.items?.rows).toHaveLength(1);
      expect(outcome.messages.every((m) => m.file === undefined || m.file === name)).toBe(true);
    }
  });

  it('rejects two files for the same group, whatever their extensions', async () => {
    await expectInputError(SCHEMAS, [upload('items.csv', ITEMS), upload('items.json', '[]')], /'items\.csv' and 'items\.json' are both for schema group 'items'/);
    await expectInputError(SCHEMAS, [upload('a/items.csv', ITEMS), upload('b/Items.csv', ITEMS)], /both for schema group 'items'/);
  });

  it('warns about a file whose stem names no group and ignores it without reading it', async () => {
    const outcome = await expectSuccess(SCHEMAS, [upload('items.csv', ITEMS), upload('notes.csv', Buffer.from([0xff, 0x00, 0xfe]))]);
    expect(outcome.messages).toContainEqual({ severity: 'warning', file: 'notes.csv', message: expect.stringMatching(/matches no schema group \(items\); file ignored/) });
  });

  it('matches a stem to its group case-insensitively when no exact match exists', async () => {
    const outcome = await expectSuccess(SCHEMAS, [upload('ITEMS.csv', ITEMS)]);
    expect(outcome.tables.items?.rows).toHaveLength(1);
  });

  it('reports a missing required group as an error and fails', async () => {
    const messages = await expectFailure(SCHEMAS, [upload('other.csv', ITEMS)]);
    expect(errors(messages)).toEqual([{ severity: 'error', message: "no file for required schema group 'items' (expected items.csv, items.json or items.xlsx)" }]);
  });

  it('gives an optional group without a file empty tables and an info message', async () => {
    const schemas: Schemas = { ...SCHEMAS, notes: { required: false, tables: { notes: { columns: { text: { type: 'string' } } } } } };
    const outcome = await expectSuccess(schemas, [upload('items.csv', ITEMS)]);
    expect(outcome.tables.notes).toEqual({ columns: [{ name: 'text', type: 'string' }], rows: [] });
    expect(outcome.messages).toContainEqual({ severity: 'info', message: "no file for optional schema group 'notes'; its tables are empty" });
  });

  it('fails whenever any error-level message exists, and succeeds with only warnings and infos', async () => {
    const ok = await expectSuccess(SCHEMAS, [upload('items.csv', 'id,qty,price,extra\nA,1,1.5,x\n')]);
    expect(ok.messages.map((m) => m.severity)).toEqual(['info', 'info', 'warning']);
    await expectFailure(SCHEMAS, [upload('items.csv', 'id,qty,price\nA,x,1.5\n')]);
  });

  it('rejects an upload with more data cells than maxCells', async () => {
    const nine = 'id,qty,price\nA,1,1\nB,2,2\nC,3,3\n';
    await expectInputError(SCHEMAS, [upload('items.csv', nine)], /'items\.csv': the upload holds more than the limit of 8 cells/, { maxCells: 8 });
    await expectSuccess(SCHEMAS, [upload('items.csv', nine)], { maxCells: 9 });
  });

  it('refuses unusable limits as a programming error, not as bad input', async () => {
    const error = await runEtl(SCHEMAS, [upload('items.csv', ITEMS)], { maxCells: 0 }).catch((err: unknown) => err);
    expect(error).toBeInstanceOf(TypeError);
    expect(error).not.toBeInstanceOf(EtlInputError);
    expect((error as Error).message).toBe('limits.maxCells must be a positive integer');
  });

  it('refuses schemas that declare one table name in two groups', async () => {
    const schemas: Schemas = { a: { tables: { t: { columns: {} } } }, b: { tables: { t: { columns: {} } } } };
    await expect(runEtl(schemas, [upload('a.csv', 'x\n')])).rejects.toThrow("schema: table 't' is declared by groups 'a' and 'b'");
  });
});
