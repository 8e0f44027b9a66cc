import { describe, expect, it } from 'vitest';
import type { Schemas } from '../../../src/domain/dataset-schema.js';
import { buildZip } from './support/zip-builder.js';
import { errors, expectFailure, expectInputError, expectSuccess, records, SCHEMAS, upload, workbook } from './support/fixtures.js';

const ORDERS: Schemas = {
  orders: {
    tables: {
      orders: { columns: { id: { type: 'integer', primaryKey: true }, customer: { type: 'string' } } },
      lines: { parent: { table: 'orders', field: 'lines', foreignKey: 'order_id' }, columns: { order_id: { type: 'integer' }, qty: { type: 'integer' } } },
    },
  },
};

const ALL_TYPES: Schemas = {
  t: {
    tables: {
      t: {
        columns: {
          s: { type: 'string', nullable: true }, i: { type: 'integer', nullable: true }, f: { type: 'float', nullable: true },
          b: { type: 'boolean', nullable: true }, d: { type: 'datetime', nullable: true },
        },
      },
    },
  },
};

describe('XLSX reader', () => {
  it('reads the single sheet of a one-table group whatever the sheet is called', async () => {
    const data = await workbook({ 'Sheet 1': [['id', 'qty', 'price'], ['A', 1, 1.5], ['B', 2, 3]] });
    const outcome = await expectSuccess(SCHEMAS, [upload('items.xlsx', data)]);
    expect(records(outcome.tables.items)).toEqual([
      { id: 'A', qty: 1, price: 1.5, active: true, added: null },
      { id: 'B', qty: 2, price: 3, active: true, added: null },
    ]);
  });

  it('reads numbers, text, booleans, dates, rich text, formula results, hyperlinks and empty cells', async () => {
    const data = await workbook({
      t: [
        ['s', 'i', 'f', 'b', 'd'],
        [12, 7, 2.5, true, new Date(Date.UTC(2024, 0, 31))],
        [{ richText: [{ text: 'rich ' }, { font: { bold: true }, text: 'text' }] }, { formula: '3+4', result: 7 }, '1,5', 'no', new Date(Date.UTC(2024, 0, 31, 8, 30))],
        [{ text: 'a link', hyperlink: 'https://example.com' }, null, { formula: 'A1*2', result: 0.25 }, 0, '2024-02-01T10:00:00Z'],
        ['only text', null, null, null, null],
      ],
    });
    const outcome = await expectSuccess(ALL_TYPES, [upload('t.xlsx', data)]);
    expect(outcome.tables.t?.rows).toEqual([
      ['12', 7, 2.5, true, '2024-01-31'],
      ['rich text', 7, 1.5, false, '2024-01-31T08:30:00'],
      ['a link', null, 0.25, false, '2024-02-01T10:00:00Z'],
      ['only text', null, null, null, null],
    ]);
  });

  it('reports an Excel error value instead of reading it as text', async () => {
    const data = await workbook({ t: [['s', 'f'], ['x', { formula: '1/0', result: { error: '#DIV/0!' } }], [{ error: '#N/A' }, 1]] });
    const schemas: Schemas = { t: { tables: { t: { columns: { s: { type: 'string', nullable: true }, f: { type: 'float', nullable: true } } } } } };
    const messages = await expectFailure(schemas, [upload('t.xlsx', data)]);
    expect(errors(messages)).toEqual([
      { severity: 'error', file: 't.xlsx', table: 't', column: 'f', row: 1, message: 'the Excel error #DIV/0! cannot be a float' },
      { severity: 'error', file: 't.xlsx', table: 't', column: 's', row: 2, message: 'the Excel error #N/A cannot be a string' },
    ]);
  });

  it('numbers data rows from the row below the header, counting blank rows', async () => {
    const data = await workbook({ items: [undefined, ['id', 'qty', 'price'], ['A', 1, 1], undefined, ['B', 'two', 2]] });
    const messages = await expectFailure(SCHEMAS, [upload('items.xlsx', data)]);
    expect(errors(messages)).toEqual([expect.objectContaining({ column: 'qty', row: 3, message: expect.stringContaining('"two" is not a valid integer') })]);
  });

  it('reads one sheet per table by table name and ignores other sheets with an info', async () => {
    const data = await workbook({ Lines: [['order_id', 'qty'], [1, 2], [1, 3]], README: [['notes']], orders: [['id', 'customer'], [1, 'Ada']] });
    const outcome = await expectSuccess(ORDERS, [upload('orders.xlsx', data)]);
    expect(records(outcome.tables.orders)).toEqual([{ id: 1, customer: 'Ada' }]);
    expect(records(outcome.tables.lines)).toEqual([{ order_id: 1, qty: 2 }, { order_id: 1, qty: 3 }]);
    expect(outcome.messages).toEqual([{ severity: 'info', file: 'orders.xlsx', message: "sheet 'README' is not a table of group 'orders'; ignored" }]);
  });

  it('reports a missing sheet for a table as an error', async () => {
    const data = await workbook({ orders: [['id', 'customer'], [1, 'Ada']] });
    const messages = await expectFailure(ORDERS, [upload('orders.xlsx', data)]);
    expect(errors(messages)).toEqual([{ severity: 'error', file: 'orders.xlsx', table: 'lines', message: "the workbook has no sheet named 'lines' (its sheets: orders)" }]);
  });

  it('looks a one-table group up by name when the workbook has several sheets', async () => {
    const data = await workbook({ other: [['x']], items: [['id', 'qty', 'price'], ['A', 1, 1]] });
    const outcome = await expectSuccess(SCHEMAS, [upload('items.xlsx', data)]);
    expect(outcome.tables.items?.rows).toEqual([['A', 1, 1, true, null]]);
  });

  it('rejects an .xlsx file that is not a zip archive', async () => {
    await expectInputError(SCHEMAS, [upload('items.xlsx', 'id,qty,price\nA,1,1\n')], /'items\.xlsx': not a readable XLSX workbook: not a zip archive/);
    await expectInputError(SCHEMAS, [upload('items.xlsx', Buffer.alloc(0))], /not a readable XLSX workbook/);
  });

  it('rejects a truncated workbook', async () => {
    const data = await workbook({ items: [['id', 'qty', 'price'], ['A', 1, 1]] });
    await expectInputError(SCHEMAS, [upload('items.xlsx', data.subarray(0, data.length - 100))], /'items\.xlsx': not a readable XLSX workbook/);
  });

  it('rejects a zip archive that holds no workbook', async () => {
    const zip = buildZip([{ name: 'hello.txt', content: Buffer.from('hello') }]);
    await expectInputError(SCHEMAS, [upload('items.xlsx', zip)], /'items\.xlsx': not a readable XLSX workbook: it holds no worksheet/);
  });
});
