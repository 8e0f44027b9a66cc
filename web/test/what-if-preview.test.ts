import { describe, expect, it } from 'vitest';
// The server's own derive step (the code `POST .../derive` and `.../branch` store a dataset by), run
// here beside the dashboard's preview: the two must agree row for row.
import { applyEdits as serverApply } from '../../src/datasets/edits/apply-edits.ts';
import { tableShapes } from '../../src/datasets/edits/table-shape.ts';
import type { Table } from '../../src/domain/dataset-model.ts';
import { applyEdits } from '../src/whatif/apply-edits.ts';
import type { Edit } from '../src/whatif/edits.ts';

const SLOTS: Table = {
  columns: [
    { name: 'slot', type: 'string' },
    { name: 'at', type: 'datetime' },
    { name: 'capacity', type: 'integer' },
  ],
  // The first is 2026-02-28T22:00Z, an hour before the second, though its text sorts after it.
  rows: [
    ['S1', '2026-03-01T00:00:00+02:00', 1],
    ['S2', '2026-02-28T23:00:00Z', 2],
    ['S3', '2026-03-02T09:00:00Z', 7],
  ],
};

function both(edits: Edit[]) {
  const preview = applyEdits({ slots: SLOTS }, edits);
  const server = serverApply({ slots: SLOTS }, edits, tableShapes([{ name: 'slots', columns: SLOTS.columns }], {}));
  if (!server.ok) throw new Error(JSON.stringify(server.errors));
  return { preview, server };
}

describe('the what-if preview runs the server’s edit rules', () => {
  it('matches date-times as instants, where text and instant order differ, as the server edits them', () => {
    const cases: Edit[] = [
      // Text comparison would keep S2 only (and S1 sorts after S2 as text).
      { table: 'slots', update: { where: { at: { lte: '2026-02-28T23:00:00Z' } }, set: { capacity: 0 } } },
      // Text comparison would match nothing: the stored text has an offset.
      { table: 'slots', delete: { where: { at: '2026-02-28T22:00:00Z' } } },
      { table: 'slots', update: { where: { at: ['2026-03-01T00:00:00+02:00', '2026-03-02T10:00:00+01:00'] }, scale: { capacity: 2 } } },
    ];
    for (const edit of cases) {
      const { preview, server } = both([edit]);
      expect(preview.rows).toEqual(server.rows);
      expect(preview.tables.slots!.rows).toEqual(server.tables.get('slots')!.rows);
    }
    expect(both([cases[0]!]).preview.rows).toEqual([2]);
    expect(both([cases[1]!]).preview.rows).toEqual([1]);
    expect(both([cases[2]!]).preview.rows).toEqual([2]);
  });

  it('rounds an integer column row by row as the server stores it, and reports each change and rounding', () => {
    const { preview, server } = both([{ table: 'slots', update: { where: {}, scale: { capacity: 0.5 } } }]);
    expect(preview.tables.slots!.rows.map((r) => r[2])).toEqual([1, 1, 4]);
    expect(preview.tables.slots!.rows).toEqual(server.tables.get('slots')!.rows);
    expect(preview.scaled).toEqual([
      [
        {
          column: 'capacity',
          factor: 0.5,
          samples: [
            { before: 1, after: 1 },
            { before: 2, after: 1 },
            { before: 7, after: 4 },
          ],
          total: { before: 10, after: 6, exact: 5 },
          rounded: 2,
          firstRounded: { before: 1, exact: 0.5, after: 1 },
        },
      ],
    ]);
  });

  it('leaves out an edit naming a column the table lacks (the server refuses it) without breaking the rest', () => {
    const preview = applyEdits({ slots: SLOTS }, [
      { table: 'slots', update: { where: { nope: 1 }, set: { capacity: 0 } } },
      { table: 'slots', update: { where: { slot: 'S1' }, set: { capacity: 0 } } },
    ]);
    expect(preview.rows).toEqual([undefined, 1]);
  });
});
