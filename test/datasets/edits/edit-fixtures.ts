import type { Table } from '../../../src/domain/dataset-model.js';
import type { Schemas } from '../../../src/domain/dataset-schema.js';
import { tableShapes } from '../../../src/datasets/edits/table-shape.js';

/** A small warehouse: SKUs keyed by `sku`, locations keyed by `location` with a unique `label`. */
export const schemas: Schemas = {
  skus: {
    tables: {
      skus: {
        columns: {
          sku: { type: 'string', primaryKey: true },
          zone: { type: 'string' },
          picks: { type: 'float' },
          boxes: { type: 'integer', required: false, default: 1 },
          note: { type: 'string', required: false, nullable: true, default: null },
          fragile: { type: 'boolean', required: false, default: false },
          since: { type: 'datetime', required: false, nullable: true, default: null },
        },
      },
    },
  },
  layout: { tables: { locations: { columns: { location: { type: 'string', primaryKey: true }, label: { type: 'string', unique: true } } } } },
};

export const tables: Record<string, Table> = {
  skus: {
    columns: [
      { name: 'sku', type: 'string' },
      { name: 'zone', type: 'string' },
      { name: 'picks', type: 'float' },
      { name: 'boxes', type: 'integer' },
      { name: 'note', type: 'string' },
      { name: 'fragile', type: 'boolean' },
      { name: 'since', type: 'datetime' },
    ],
    rows: [
      ['S1', 'A', 10, 3, null, false, '2024-05-01T00:00:00.000Z'],
      ['S2', 'A', 20, 5, 'top', true, null],
      ['S3', 'B', 30, 7, null, false, '2024-06-01T00:00:00.000Z'],
      ['S4', 'C', 0, 1, null, false, null],
    ],
  },
  locations: {
    columns: [
      { name: 'location', type: 'string' },
      { name: 'label', type: 'string' },
    ],
    rows: [
      ['L1', 'one'],
      ['L2', 'two'],
    ],
  },
  /** A table the domain does not declare: any column may be empty, no key. */
  extra: { columns: [{ name: 'n', type: 'integer' }], rows: [[1], [1]] },
};

export const shapes = tableShapes(
  Object.entries(tables).map(([name, t]) => ({ name, columns: t.columns })),
  schemas,
);
