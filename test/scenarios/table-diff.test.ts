import { describe, expect, it } from 'vitest';
import type { Cell, Table } from '../../src/domain/dataset-model.js';
import { diffTable, diffTables, MAX_EXAMPLES } from '../../src/scenarios/tree/table-diff.js';

const columns = [
  { name: 'sku', type: 'string' },
  { name: 'zone', type: 'string' },
  { name: 'picks', type: 'float' },
] as const;
const table = (rows: Cell[][], cols: Table['columns'] = columns): Table => ({ columns: cols, rows });

describe('the table diff', () => {
  it('counts rows added, removed, changed and unchanged by the key columns, with examples of each', () => {
    const from = table([
      ['a', 'A', 1],
      ['b', 'A', 2],
      ['c', 'B', 3],
    ]);
    const to = table([
      ['a', 'A', 1],
      ['b', 'A', 2.5],
      ['d', 'C', 4],
    ]);
    expect(diffTable('skus', from, to, ['sku'])).toEqual({
      table: 'skus',
      status: 'compared',
      key: ['sku'],
      rows_added: 1,
      rows_removed: 1,
      rows_changed: 1,
      rows_unchanged: 1,
      added: [{ sku: 'd', zone: 'C', picks: 4 }],
      removed: [{ sku: 'c', zone: 'B', picks: 3 }],
      changed: [{ key: { sku: 'b' }, changes: { picks: { from: 2, to: 2.5 } } }],
    });
  });

  it('matches rows whatever the column order of either side', () => {
    const reordered = [columns[2], columns[0], columns[1]];
    const diff = diffTable('skus', table([['a', 'A', 1]]), table([[5, 'a', 'A']], reordered), ['sku']);
    expect(diff).toMatchObject({ rows_changed: 1, changed: [{ key: { sku: 'a' }, changes: { picks: { from: 1, to: 5 } } }] });
  });

  it('matches by every column when the table declares no key, so a row is only added or removed', () => {
    const diff = diffTable('t', table([['a', 'A', 1], ['a', 'A', 1]]), table([['a', 'A', 1], ['a', 'A', 2]]), []);
    expect(diff).toMatchObject({ key: ['sku', 'zone', 'picks'], rows_added: 1, rows_removed: 1, rows_changed: 0, rows_unchanged: 1 });
  });

  it('tells tables whose columns differ, and tables only one side has', () => {
    const other = table([['a', 1]], [columns[0], { name: 'weight', type: 'float' }]);
    expect(diffTables({ skus: table([]), gone: table([['x', 'X', 0]]) }, { skus: other, fresh: table([]) }, () => ['sku'])).toEqual([
      { table: 'skus', status: 'columns_differ', columns_added: ['weight:float'], columns_removed: ['zone:string', 'picks:float'] },
      { table: 'gone', status: 'only_in_from', rows: 1 },
      { table: 'fresh', status: 'only_in_to', rows: 0 },
    ]);
  });

  it(`compares two 100,000-row tables in full and keeps ${MAX_EXAMPLES} examples of each kind`, () => {
    const n = 100_000;
    const fromRows: Cell[][] = [];
    const toRows: Cell[][] = [];
    for (let i = 0; i < n; i++) {
      fromRows.push([`sku-${i}`, i % 2 ? 'A' : 'B', i]);
      // Every tenth row changed, the first thousand removed, a thousand new ones added.
      if (i >= 1000) toRows.push([`sku-${i}`, i % 2 ? 'A' : 'B', i % 10 === 0 ? i + 0.5 : i]);
    }
    for (let i = n; i < n + 1000; i++) toRows.push([`sku-${i}`, 'C', i]);
    const diff = diffTable('skus', table(fromRows), table(toRows.reverse()), ['sku']);
    expect(diff).toMatchObject({ rows_added: 1000, rows_removed: 1000, rows_changed: 9900, rows_unchanged: 89_100 });
    if (diff.status !== 'compared') throw new Error('not compared');
    expect([diff.added.length, diff.removed.length, diff.changed.length]).toEqual([MAX_EXAMPLES, MAX_EXAMPLES, MAX_EXAMPLES]);
  });
});
