import { describe, expect, it } from 'vitest';
import type { Schemas } from '../../../src/domain/dataset-schema.js';
import { errors, expectFailure, expectInputError, expectSuccess, records, SCHEMAS, upload } from './support/fixtures.js';

const ORDERS: Schemas = {
  orders: {
    tables: {
      orders: { columns: { id: { type: 'integer', primaryKey: true }, customer: { type: 'string' } } },
      lines: {
        parent: { table: 'orders', field: 'lines', foreignKey: 'order_id' },
        columns: { order_id: { type: 'integer' }, sku: { type: 'string' }, qty: { type: 'integer' } },
      },
    },
  },
};

function json(value: unknown) {
  return JSON.stringify(value);
}

describe('JSON reader', () => {
  it('reads an array of flat records into the root table', async () => {
    const outcome = await expectSuccess(SCHEMAS, [upload('items.json', json([{ id: 'A', qty: 1, price: 1.5, active: false, added: '2024-01-31' }, { price: '2,5', qty: '2', id: 'B' }]))]);
    expect(records(outcome.tables.items)).toEqual([
      { id: 'A', qty: 1, price: 1.5, active: false, added: '2024-01-31' },
      { id: 'B', qty: 2, price: 2.5, active: true, added: null },
    ]);
  });

  it('reads child rows nested under the parent field and copies the parent key into the foreign key', async () => {
    const doc = [
      { id: 1, customer: 'Ada', lines: [{ sku: 'x', qty: 2 }, { sku: 'y', qty: 1 }] },
      { id: 2, customer: 'Bob', lines: [] },
      { id: 3, customer: 'Cy' },
      { id: 4, customer: 'Di', lines: [{ sku: 'z', qty: 5, order_id: 99 }] },
    ];
    const outcome = await expectSuccess(ORDERS, [upload('orders.json', json(doc))]);
    expect(records(outcome.tables.orders)).toEqual([{ id: 1, customer: 'Ada' }, { id: 2, customer: 'Bob' }, { id: 3, customer: 'Cy' }, { id: 4, customer: 'Di' }]);
    expect(records(outcome.tables.lines)).toEqual([
      { order_id: 1, sku: 'x', qty: 2 },
      { order_id: 1, sku: 'y', qty: 1 },
      { order_id: 4, sku: 'z', qty: 5 },
    ]);
    expect(outcome.messages).toEqual([]);
  });

  it('nests grandchildren under children, each copying its own parent key', async () => {
    const deep: Schemas = {
      o: {
        tables: {
          orders: { columns: { id: { type: 'integer', primaryKey: true } } },
          lines: { parent: { table: 'orders', field: 'lines', foreignKey: 'order_id' }, columns: { line_id: { type: 'string', primaryKey: true }, order_id: { type: 'integer' } } },
          parts: { parent: { table: 'lines', field: 'parts', foreignKey: 'line_id' }, columns: { line_id: { type: 'string' }, part: { type: 'string' } } },
        },
      },
    };
    const doc = [{ id: 1, lines: [{ line_id: 'L1', parts: [{ part: 'p1' }, { part: 'p2' }] }, { line_id: 'L2', parts: [{ part: 7 }] }] }];
    const outcome = await expectSuccess(deep, [upload('o.json', json(doc))]);
    expect(records(outcome.tables.lines)).toEqual([{ line_id: 'L1', order_id: 1 }, { line_id: 'L2', order_id: 1 }]);
    expect(records(outcome.tables.parts)).toEqual([{ line_id: 'L1', part: 'p1' }, { line_id: 'L1', part: 'p2' }, { line_id: 'L2', part: '7' }]);
  });

  it('locates a bad child value at its parent record, naming the item', async () => {
    const doc = [{ id: 1, customer: 'Ada', lines: [{ sku: 'x', qty: 2 }] }, { id: 2, customer: 'Bob', lines: [{ sku: 'y', qty: 1 }, { sku: 'z', qty: 'lots' }] }];
    const messages = await expectFailure(ORDERS, [upload('orders.json', json(doc))]);
    expect(errors(messages)).toEqual([
      { severity: 'error', file: 'orders.json', table: 'lines', column: 'qty', row: 2, message: `item 2 of 'lines': "lots" is not a valid integer: expected a whole number such as 12` },
    ]);
  });

  it('reports records that are not objects with their position in the array', async () => {
    const messages = await expectFailure(SCHEMAS, [upload('items.json', json([{ id: 'A', qty: 1, price: 1 }, 'B', null, [1, 2]]))]);
    expect(errors(messages).map((m) => [m.row, m.message])).toEqual([
      [2, 'the record is a string, not an object of column values'],
      [3, 'the record is null, not an object of column values'],
      [4, 'the record is an array, not an object of column values'],
    ]);
  });

  it('reports a nested field that is not an array, and nested objects where a value belongs', async () => {
    const doc = [{ id: 1, customer: 'Ada', lines: 'none' }, { id: 2, customer: { first: 'Bob' } }];
    const messages = await expectFailure(ORDERS, [upload('orders.json', json(doc))]);
    expect(errors(messages)).toEqual([
      { severity: 'error', file: 'orders.json', table: 'orders', column: 'lines', row: 1, message: "'lines' is a string, not an array of records" },
      { severity: 'error', file: 'orders.json', table: 'orders', column: 'customer', row: 2, message: 'a nested object cannot be a string' },
    ]);
  });

  it('accepts an object of table name to records, with child tables flat', async () => {
    const doc = { orders: [{ id: 1, customer: 'Ada' }], lines: [{ order_id: 1, sku: 'x', qty: 3 }] };
    const outcome = await expectSuccess(ORDERS, [upload('orders.json', json(doc))]);
    expect(records(outcome.tables.lines)).toEqual([{ order_id: 1, sku: 'x', qty: 3 }]);
  });

  it('reports a missing table array in the object form and warns about unknown keys', async () => {
    const messages = await expectFailure(ORDERS, [upload('orders.json', json({ lines: [], extra: [] }))]);
    expect(messages).toEqual([
      { severity: 'warning', file: 'orders.json', message: "key 'extra' names no table of group 'orders'; ignored" },
      { severity: 'error', file: 'orders.json', table: 'orders', message: "the JSON object has no array of records for table 'orders'" },
    ]);
  });

  it('rejects a JSON object whose keys name no table, and an object instead of an array', async () => {
    await expectInputError(SCHEMAS, [upload('items.json', json({ id: 'A', qty: 1, price: 2 }))], /'items\.json': the JSON object has no array for any table of group 'items'/);
    await expectInputError(SCHEMAS, [upload('items.json', json({ items: { id: 'A' } }))], /'items\.json': 'items' must be an array of records/);
  });

  it('rejects a root that is neither an array nor an object', async () => {
    for (const root of ['42', '"text"', 'null', 'true']) {
      await expectInputError(SCHEMAS, [upload('items.json', root)], /the JSON root must be an array of records/);
    }
  });

  it('rejects JSON that does not parse, naming the file', async () => {
    await expectInputError(SCHEMAS, [upload('items.json', '[{"id": "A",]')], /'items\.json': not valid JSON/);
  });

  it('rejects an empty or whitespace-only JSON file', async () => {
    await expectInputError(SCHEMAS, [upload('items.json', '')], /'items\.json': the file is empty/);
    await expectInputError(SCHEMAS, [upload('items.json', '\n  \n')], /'items\.json': the file is empty/);
  });

  it('asks for the object form when a group has several root tables', async () => {
    const two: Schemas = { g: { tables: { a: { columns: { x: { type: 'string' } } }, b: { columns: { y: { type: 'string' } } } } } };
    await expectInputError(two, [upload('g.json', '[]')], /group 'g' has several tables \(a, b\); send a JSON object/);
    const outcome = await expectSuccess(two, [upload('g.json', json({ a: [{ x: '1' }], b: [{ y: '2' }] }))]);
    expect(records(outcome.tables.b)).toEqual([{ y: '2' }]);
  });

  it('charges the cell budget before building the grid, so records with keys of their own fail at once', async () => {
    // 20,000 records, each with its own key: a 20,000-column header and 400 million cells if built.
    const records = Array.from({ length: 20_000 }, (_, i) => ({ [`k${i}`]: i }));
    await expectInputError(SCHEMAS, [upload('items.json', JSON.stringify(records))], /'items\.json': the upload holds more than the limit of 50000000 cells/);
  });
});
