import { describe, expect, it } from 'vitest';
import { applyEdits } from '../../../src/datasets/edits/apply-edits.js';
import type { DataEdit } from '../../../src/domain/edits/edit-model.js';
import { shapes, tables } from './edit-fixtures.js';

const apply = (edits: readonly DataEdit[]) => applyEdits(tables, edits, shapes);
const applied = (edits: readonly DataEdit[]) => {
  const outcome = apply(edits);
  if (!outcome.ok) throw new Error(JSON.stringify(outcome.errors));
  return outcome;
};
const column = (table: string, name: string, outcome: ReturnType<typeof applied>) => {
  const t = outcome.tables.get(table)!;
  const c = t.columns.findIndex((col) => col.name === name);
  return t.rows.map((row) => row[c]);
};

describe('applyEdits', () => {
  it('scales the matching rows and rounds an integer column', () => {
    const outcome = applied([{ table: 'skus', update: { where: { zone: 'A' }, scale: { picks: 1.1, boxes: 1.5 } } }]);
    expect(outcome.rows).toEqual([2]);
    expect(column('skus', 'picks', outcome)).toEqual([10 * 1.1, 20 * 1.1, 30, 0]);
    expect(column('skus', 'boxes', outcome)).toEqual([5, 8, 7, 1]);
  });

  it('sets values where a list, a range and a date all hold', () => {
    const outcome = applied([{ table: 'skus', update: { where: { zone: ['A', 'B'], picks: { gte: 15 }, since: { lte: '2024-12-31' } }, set: { note: 'x' } } }]);
    expect(outcome.rows).toEqual([1]);
    expect(column('skus', 'note', outcome)).toEqual([null, 'top', 'x', null]);
  });

  it('matches a date-time given as a date, and null as an empty cell', () => {
    expect(applied([{ table: 'skus', update: { where: { since: '2024-05-01' }, set: { note: 'may' } } }]).rows).toEqual([1]);
    expect(applied([{ table: 'skus', update: { where: { note: null }, set: { boxes: 9 } } }]).rows).toEqual([3]);
  });

  it('inserts rows with the declared defaults for columns left out', () => {
    const outcome = applied([{ table: 'skus', insert: [{ sku: 'S9', zone: 'C', picks: 1.5 }] }]);
    expect(outcome.rows).toEqual([1]);
    expect(outcome.tables.get('skus')!.rows.at(-1)).toEqual(['S9', 'C', 1.5, 1, null, false, null]);
  });

  it('deletes the matching rows and counts them', () => {
    const outcome = applied([{ table: 'skus', delete: { where: { zone: 'A' } } }]);
    expect(outcome.rows).toEqual([2]);
    expect(column('skus', 'sku', outcome)).toEqual(['S3', 'S4']);
  });

  it('applies edits in order, each seeing the ones before', () => {
    const outcome = applied([
      { table: 'skus', insert: [{ sku: 'S9', zone: 'A', picks: 1 }] },
      { table: 'skus', update: { where: { zone: 'A' }, set: { zone: 'D' } } },
      { table: 'skus', delete: { where: { zone: 'D', picks: { lte: 10 } } } },
    ]);
    expect(outcome.rows).toEqual([1, 3, 2]);
    expect(column('skus', 'sku', outcome)).toEqual(['S2', 'S3', 'S4']);
  });

  it('counts 0 for an edit whose where matches no row, and changes nothing', () => {
    const outcome = applied([{ table: 'skus', update: { where: { zone: 'Z' }, scale: { picks: 2 } } }]);
    expect(outcome.rows).toEqual([0]);
    expect(outcome.tables.get('skus')!.rows).toEqual(tables.skus!.rows);
  });

  it('leaves the given tables unchanged and answers only the tables it edited', () => {
    const before = JSON.stringify(tables);
    const outcome = applied([{ table: 'skus', update: { where: {}, set: { zone: 'Q' } } }, { table: 'skus', delete: { where: { sku: 'S1' } } }]);
    expect(JSON.stringify(tables)).toBe(before);
    expect([...outcome.tables.keys()]).toEqual(['skus']);
  });

  it('refuses keys repeated after each edit, every one at once, at the edit and row that repeat them', () => {
    const outcome = apply([
      { table: 'skus', insert: [{ sku: 'S5', zone: 'A', picks: 1 }, { sku: 'S1', zone: 'A', picks: 1 }] },
      { table: 'skus', update: { where: { sku: 'S2' }, set: { sku: 'S3' } } },
      { table: 'locations', insert: [{ location: 'L3', label: 'one' }] },
      { table: 'skus', update: { where: {}, set: { zone: 'B' } } },
    ]);
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.errors).toEqual([
      { path: 'edits[0].insert[1]', message: "key column 'sku' = \"S1\" would repeat in row 6" },
      { path: 'edits[1].update', message: "key column 'sku' = \"S3\" would repeat in row 3" },
      { path: 'edits[2].insert[0]', message: "unique column 'label' = \"one\" would repeat in row 3" },
    ]);
  });

  it('refuses a scale whose product leaves the column type', () => {
    const outcome = apply([{ table: 'skus', update: { where: {}, scale: { boxes: 1e300, picks: 1e308 } } }]);
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    expect(outcome.errors.map((e) => e.path)).toEqual(['edits[0].update.scale.boxes', 'edits[0].update.scale.picks']);
    expect(outcome.errors[0]!.message).toMatch(/scaling 'boxes' gives 3e\+300 in row 1, not an integer value/);
  });
});
