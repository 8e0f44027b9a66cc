import { describe, expect, it } from 'vitest';
import { COERCERS, Invalid, isEmptyCell, type PresentCell } from '../../../src/datasets/etl/coerce.js';
import { BadCell } from '../../../src/datasets/etl/readers/reader.js';
import type { ColumnType } from '../../../src/domain/dataset-model.js';
import type { Schemas } from '../../../src/domain/dataset-schema.js';
import { errors, expectFailure, expectSuccess, records, upload } from './support/fixtures.js';

function coerce(type: ColumnType, raw: PresentCell) {
  const value = COERCERS[type](raw);
  return value instanceof Invalid ? { invalid: value.reason } : value;
}

const invalid = { invalid: expect.any(String) };

describe('coercion to column types', () => {
  it('keeps text for string columns and turns numbers, booleans and dates into text', () => {
    expect(coerce('string', ' spaced ')).toBe(' spaced ');
    expect(coerce('string', 12)).toBe('12');
    expect(coerce('string', 1.5)).toBe('1.5');
    expect(coerce('string', false)).toBe('false');
    expect(coerce('string', new Date(Date.UTC(2024, 0, 31)))).toBe('2024-01-31');
    expect(coerce('string', new BadCell('the Excel error #N/A'))).toEqual({ invalid: 'the Excel error #N/A' });
  });

  it('reads whole numbers for integer columns and rejects fractions and text', () => {
    expect(coerce('integer', '12')).toBe(12);
    expect(coerce('integer', ' -7 ')).toBe(-7);
    expect(coerce('integer', '+3')).toBe(3);
    expect(coerce('integer', '12.0')).toBe(12);
    expect(coerce('integer', 12)).toBe(12);
    expect(coerce('integer', 1.5)).toEqual(invalid);
    expect(coerce('integer', '1.5')).toEqual(invalid);
    expect(coerce('integer', 'abc')).toEqual(invalid);
    expect(coerce('integer', '1e3')).toEqual(invalid);
    expect(coerce('integer', '0x10')).toEqual(invalid);
    expect(coerce('integer', true)).toEqual(invalid);
    expect(coerce('integer', '9007199254740993')).toEqual({ invalid: expect.stringContaining('cannot be stored exactly') });
  });

  it('reads decimal numbers for float columns, with a decimal comma only when unambiguous', () => {
    expect(coerce('float', '1.5')).toBe(1.5);
    expect(coerce('float', '-.5')).toBe(-0.5);
    expect(coerce('float', '2.5e-3')).toBe(0.0025);
    expect(coerce('float', '7')).toBe(7);
    expect(coerce('float', 2.25)).toBe(2.25);
    expect(coerce('float', '1,5')).toBe(1.5);
    expect(coerce('float', '-12,75')).toBe(-12.75);
    expect(coerce('float', '0,125')).toBe(0.125);
    expect(coerce('float', '1234,567')).toBe(1234.567);
    expect(coerce('float', '1,234')).toEqual({ invalid: expect.stringContaining('ambiguous') });
    expect(coerce('float', '1,234.5')).toEqual(invalid);
    expect(coerce('float', '1.234,5')).toEqual(invalid);
    expect(coerce('float', 'NaN')).toEqual(invalid);
    expect(coerce('float', 'Infinity')).toEqual(invalid);
    expect(coerce('float', '1e999')).toEqual(invalid);
    expect(coerce('float', 'abc')).toEqual(invalid);
  });

  it('reads true/false, yes/no and 1/0 in any case for boolean columns', () => {
    for (const yes of ['true', 'TRUE', 'Yes', '1', ' yes ', 1, true]) expect(coerce('boolean', yes)).toBe(true);
    for (const no of ['false', 'False', 'NO', '0', 0, false]) expect(coerce('boolean', no)).toBe(false);
    for (const other of ['maybe', 'y', '2', 2, 0.5]) expect(coerce('boolean', other)).toEqual(invalid);
  });

  it('reads ISO dates and date-times for datetime columns and always outputs ISO text', () => {
    expect(coerce('datetime', '2024-01-31')).toBe('2024-01-31');
    expect(coerce('datetime', '2024-01-31T08:30:00Z')).toBe('2024-01-31T08:30:00Z');
    expect(coerce('datetime', '2024-01-31 08:30')).toBe('2024-01-31T08:30:00');
    expect(coerce('datetime', '2024-01-31t08:30:15.250+0200')).toBe('2024-01-31T08:30:15.250+02:00');
    expect(coerce('datetime', '2024-01-31T08:30:00-05')).toBe('2024-01-31T08:30:00-05:00');
    expect(coerce('datetime', '2024-02-29')).toBe('2024-02-29');
    expect(coerce('datetime', new Date(Date.UTC(2024, 0, 31)))).toBe('2024-01-31');
    expect(coerce('datetime', new Date(Date.UTC(2024, 0, 31, 8, 30)))).toBe('2024-01-31T08:30:00');
    expect(coerce('datetime', new Date(Date.UTC(2024, 0, 31, 8, 30, 0, 500)))).toBe('2024-01-31T08:30:00.500');
    for (const bad of ['2023-02-29', '2024-13-01', '2024-01-31T24:00:00', '2024-01-31T08:60', '31.01.2024', '2024/01/31', 'soon', '2024-01-31T08:30:00+25:00']) {
      expect(coerce('datetime', bad)).toEqual(invalid);
    }
    expect(coerce('datetime', 45322)).toEqual({ invalid: expect.stringContaining('numbers are not read as dates') });
  });

  it('treats missing values and blank text as empty, but not zero or false', () => {
    for (const empty of [null, undefined, '', '   ', '\t']) expect(isEmptyCell(empty)).toBe(true);
    for (const value of [0, false, ' x', 'x ']) expect(isEmptyCell(value)).toBe(false);
  });
});

describe('coercion in the pipeline', () => {
  const schemas: Schemas = {
    t: {
      tables: {
        t: {
          columns: {
            s: { type: 'string' }, i: { type: 'integer' }, f: { type: 'float' }, b: { type: 'boolean' }, d: { type: 'datetime' },
          },
        },
      },
    },
  };

  it('coerces every type and returns columns in declaration order with their types', async () => {
    const outcome = await expectSuccess(schemas, [upload('t.csv', 'd;b;f;i;s\n2024-01-31;yes;1,5;12;x\n')]);
    expect(outcome.tables.t).toEqual({
      columns: [{ name: 's', type: 'string' }, { name: 'i', type: 'integer' }, { name: 'f', type: 'float' }, { name: 'b', type: 'boolean' }, { name: 'd', type: 'datetime' }],
      rows: [['x', 12, 1.5, true, '2024-01-31']],
    });
  });

  it('reports each value that does not coerce with its row, column and the value', async () => {
    const messages = await expectFailure(schemas, [upload('t.csv', 's,i,f,b,d\nok,1,1,true,2024-01-01\nok,1.5,abc,maybe,2024-02-30\n')]);
    expect(errors(messages)).toEqual([
      { severity: 'error', file: 't.csv', table: 't', column: 'i', row: 2, message: '"1.5" is not a valid integer: expected a whole number such as 12' },
      { severity: 'error', file: 't.csv', table: 't', column: 'f', row: 2, message: '"abc" is not a valid float: expected a number such as 1.5 (or 1,5)' },
      { severity: 'error', file: 't.csv', table: 't', column: 'b', row: 2, message: '"maybe" is not a valid boolean: expected true/false, yes/no or 1/0' },
      expect.objectContaining({ column: 'd', row: 2, message: expect.stringMatching(/^"2024-02-30" is not a valid datetime/) }),
    ]);
  });

  it('shortens a long offending value to about 50 characters in the message', async () => {
    const long = 'x'.repeat(500);
    const messages = await expectFailure(schemas, [upload('t.csv', `s,i,f,b,d\nok,${long},1,true,2024-01-01\n`)]);
    const message = errors(messages)[0]!.message;
    expect(message).toContain(`"${'x'.repeat(49)}…"`);
    expect(message.length).toBeLessThan(120);
  });

  it('reads the table the same from column names in another case', async () => {
    const outcome = await expectSuccess(schemas, [upload('t.csv', 'S,I,F,B,D\nx,1,2,no,2024-01-01\n')]);
    expect(records(outcome.tables.t)).toEqual([{ s: 'x', i: 1, f: 2, b: false, d: '2024-01-01' }]);
  });
});
