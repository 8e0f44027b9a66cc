import { describe, expect, it } from 'vitest';
import { MESSAGES_PER_KIND, runEtl } from '../../../src/datasets/etl/index.js';
import type { Schemas } from '../../../src/domain/dataset-schema.js';
import { errors, expectFailure, expectSuccess, records, upload } from './support/fixtures.js';

function schema(columns: Schemas[string]['tables'][string]['columns']): Schemas {
  return { t: { tables: { t: { columns } } } };
}

const KEYED = schema({ id: { type: 'integer', primaryKey: true }, code: { type: 'string', unique: true }, name: { type: 'string', nullable: true } });

describe('table validation', () => {
  it('reports a duplicate primary key with both rows', async () => {
    const messages = await expectFailure(KEYED, [upload('t.csv', 'id,code,name\n1,a,x\n2,b,y\n1,c,z\n')]);
    expect(errors(messages)).toEqual([{ severity: 'error', file: 't.csv', table: 't', column: 'id', row: 3, message: "duplicate primary key 'id' = 1: already used by row 1" }]);
  });

  it('checks a primary key of several columns as one key', async () => {
    const composite = schema({ a: { type: 'string', primaryKey: true }, b: { type: 'integer', primaryKey: true } });
    await expectSuccess(composite, [upload('t.csv', 'a,b\nx,1\nx,2\ny,1\n')]);
    const messages = await expectFailure(composite, [upload('t.csv', 'a,b\nx,1\nx,2\nx,1\n')]);
    expect(errors(messages)).toEqual([expect.objectContaining({ row: 3, message: 'duplicate primary key (a, b) = "x", 1: already used by row 1' })]);
  });

  it('reports a repeated value in a unique column and allows repeated empty values', async () => {
    const messages = await expectFailure(KEYED, [upload('t.csv', 'id,code,name\n1,a,\n2,b,\n3,a,\n')]);
    expect(errors(messages)).toEqual([{ severity: 'error', file: 't.csv', table: 't', column: 'code', row: 3, message: `"a" in unique column 'code' repeats row 1` }]);
  });

  it('stores null for an empty cell of a nullable column', async () => {
    const outcome = await expectSuccess(KEYED, [upload('t.csv', 'id,code,name\n1,a,\n2,b,  \n')]);
    expect(records(outcome.tables.t).map((r) => r.name)).toEqual([null, null]);
  });

  it('reports an empty cell of a non-nullable column without default as an error', async () => {
    const messages = await expectFailure(KEYED, [upload('t.csv', 'id,code,name\n1,,x\n')]);
    expect(errors(messages)).toEqual([{ severity: 'error', file: 't.csv', table: 't', column: 'code', row: 1, message: "column 'code' needs a value; to allow empty cells, declare it with nullable: true" }]);
  });

  it('never accepts an empty primary key, even when the column is declared nullable', async () => {
    const messages = await expectFailure(schema({ id: { type: 'string', primaryKey: true, nullable: true }, v: { type: 'integer' } }), [upload('t.csv', 'id,v\nx,1\n ,2\n')]);
    expect(errors(messages)).toEqual([expect.objectContaining({ column: 'id', row: 2, message: "column 'id' needs a value; to allow empty cells, declare it with nullable: true" })]);
  });

  it('fills empty cells and an absent optional column with the declared default', async () => {
    const defaults = schema({
      id: { type: 'string' },
      qty: { type: 'integer', required: false, default: 1 },
      ratio: { type: 'float', required: false, default: '0,5' },
      tag: { type: 'string', required: false },
    });
    const outcome = await expectSuccess(defaults, [upload('t.csv', 'id,qty\na,\nb,4\n')]);
    expect(records(outcome.tables.t)).toEqual([
      { id: 'a', qty: 1, ratio: 0.5, tag: null },
      { id: 'b', qty: 4, ratio: 0.5, tag: null },
    ]);
    expect(outcome.messages).toEqual([
      { severity: 'info', file: 't.csv', table: 't', column: 'ratio', message: "optional column 'ratio' is absent; filled with its default 0.5" },
      { severity: 'info', file: 't.csv', table: 't', column: 'tag', message: "optional column 'tag' is absent; filled with empty values" },
    ]);
  });

  it('treats a nullable column with a default as nullable: empty cells stay null', async () => {
    const outcome = await expectSuccess(schema({ id: { type: 'string' }, n: { type: 'integer', nullable: true, default: 5 } }), [upload('t.csv', 'id,n\na,\n')]);
    expect(records(outcome.tables.t)).toEqual([{ id: 'a', n: null }]);
  });

  it('throws a schema error (not bad input) for a default that does not fit its column type', async () => {
    await expect(runEtl(schema({ n: { type: 'integer', default: 'many' } }), [upload('t.csv', 'n\n1\n')])).rejects.toThrow(
      "schema: the default of column 'n' of table 't' is not a integer",
    );
  });

  it('reports a missing required column as an error', async () => {
    const messages = await expectFailure(KEYED, [upload('t.csv', 'id,name\n1,x\n')]);
    expect(errors(messages)).toEqual([{ severity: 'error', file: 't.csv', table: 't', column: 'code', message: "required column 'code' is missing" }]);
  });

  it('warns about an unexpected column and drops it', async () => {
    const outcome = await expectSuccess(KEYED, [upload('t.csv', 'id,colour,code,name\n1,red,a,x\n')]);
    expect(outcome.messages).toEqual([{ severity: 'warning', file: 't.csv', table: 't', column: 'colour', message: "unexpected column 'colour' is not in the schema; ignored" }]);
    expect(outcome.tables.t?.columns.map((c) => c.name)).toEqual(['id', 'code', 'name']);
    expect(outcome.tables.t?.rows).toEqual([[1, 'a', 'x']]);
  });

  it('reports a column named twice in the header as an error', async () => {
    const messages = await expectFailure(KEYED, [upload('t.csv', 'id,code,name,Code\n1,a,x,b\n')]);
    expect(errors(messages)).toEqual([expect.objectContaining({ column: 'Code', message: "column 'Code' appears more than once in the header" })]);
  });

  it('prefers an exact column name over a case-insensitive one', async () => {
    const cased = schema({ ID: { type: 'string' }, id: { type: 'integer' } });
    const outcome = await expectSuccess(cased, [upload('t.csv', 'id,ID\n1,x\n')]);
    expect(records(outcome.tables.t)).toEqual([{ ID: 'x', id: 1 }]);
    expect(outcome.messages).toEqual([]);
  });

  it('warns about a header column without a name', async () => {
    const outcome = await expectSuccess(KEYED, [upload('t.csv', 'id,code,name,\n1,a,x,\n')]);
    expect(outcome.messages).toEqual([{ severity: 'warning', file: 't.csv', table: 't', message: 'column 4 has no name in the header; ignored' }]);
  });

  it('caps repeated messages per column and kind, then summarises the rest', async () => {
    const rows = Array.from({ length: 100_000 }, (_, i) => `${i},c${i},bad${i}`).join('\n');
    const numbers = schema({ id: { type: 'integer', primaryKey: true }, code: { type: 'string' }, qty: { type: 'integer' } });
    const messages = await expectFailure(numbers, [upload('t.csv', `id,code,qty\n${rows}\n`)]);
    expect(messages).toHaveLength(MESSAGES_PER_KIND + 1);
    expect(messages.slice(0, MESSAGES_PER_KIND).map((m) => m.row)).toEqual(Array.from({ length: MESSAGES_PER_KIND }, (_, i) => i + 1));
    expect(messages.at(-1)).toEqual({
      severity: 'error', file: 't.csv', table: 't', column: 'qty',
      message: `and ${100_000 - MESSAGES_PER_KIND} more values that are not a valid integer (only the first ${MESSAGES_PER_KIND} are listed)`,
    });
  });

  it('caps each column separately', async () => {
    const rows = Array.from({ length: 30 }, () => 'x,y').join('\n');
    const messages = await expectFailure(schema({ a: { type: 'integer' }, b: { type: 'float' } }), [upload('t.csv', `a,b\n${rows}\n`)]);
    expect(messages.filter((m) => m.column === 'a')).toHaveLength(MESSAGES_PER_KIND + 1);
    expect(messages.filter((m) => m.column === 'b')).toHaveLength(MESSAGES_PER_KIND + 1);
  });
});
