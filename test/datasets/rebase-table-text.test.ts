import { describe, expect, it } from 'vitest';
import type { Cell, Column, Table } from '../../src/domain/dataset-model.js';
import type { DataEdit } from '../../src/domain/edits/edit-model.js';
import { applyEdits } from '../../src/datasets/edits/apply-edits.js';
import { tableShapes } from '../../src/datasets/edits/table-shape.js';
import { storedTableOf } from '../../src/datasets/rebase/table-text.js';

const columns: Column[] = [
  { name: 'sku', type: 'string' },
  { name: 'zone', type: 'string' },
  { name: 'picks', type: 'float' },
];

/** 200 rows; zone `C` in a run of 20 rows (longer than the walk looks ahead) and every 7th row besides. */
function master(): Table {
  const rows: Cell[][] = [];
  for (let i = 0; i < 200; i++) rows.push([`SKU-${i}`, (i >= 50 && i < 70) || i % 7 === 0 ? 'C' : i % 3 === 0 ? 'A' : 'B', i + 0.5]);
  return { columns, rows };
}

function edited(table: Table, edits: DataEdit[]): Table {
  const shapes = tableShapes([{ name: 't', columns: table.columns }], {});
  const outcome = applyEdits({ t: table }, edits, shapes);
  if (!outcome.ok) throw new Error(JSON.stringify(outcome.errors));
  return outcome.tables.get('t')!;
}

describe('a rebased table written from its parent', () => {
  it('has exactly the text JSON.stringify writes, through updates, deletes in runs and inserts, over generations', () => {
    const root = master();
    expect(storedTableOf('t', root).json).toBe(JSON.stringify(root));
    const child = edited(root, [
      { table: 't', update: { where: { zone: 'A' }, scale: { picks: 2 } } },
      { table: 't', delete: { where: { zone: 'C' } } },
      { table: 't', insert: [{ sku: 'NEW-1', zone: 'B', picks: 1 }] },
    ]);
    expect(storedTableOf('t', child, root).json).toBe(JSON.stringify(child));
    const grandchild = edited(child, [
      { table: 't', delete: { where: { zone: 'B', picks: { lte: 100 } } } },
      { table: 't', update: { where: { sku: 'NEW-1' }, set: { zone: 'A' } } },
    ]);
    expect(storedTableOf('t', grandchild, child).json).toBe(JSON.stringify(grandchild));
    // Made from a table it was not made from: nothing lines up, the text is still exact.
    const reordered: Table = { columns, rows: [...root.rows].reverse() };
    expect(storedTableOf('t', reordered, grandchild).json).toBe(JSON.stringify(reordered));
  });
});
