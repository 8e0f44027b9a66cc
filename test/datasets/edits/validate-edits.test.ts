import { describe, expect, it } from 'vitest';
import { validateEdits } from '../../../src/datasets/edits/validate-edits.js';
import { shapes } from './edit-fixtures.js';

const errorsOf = (edits: unknown) => {
  const check = validateEdits(edits, shapes);
  return check.ok ? [] : check.errors;
};
const pathsOf = (edits: unknown) => errorsOf(edits).map((e) => e.path);

describe('validateEdits', () => {
  it('accepts every edit kind and every where shape', () => {
    const edits = [
      { table: 'skus', update: { where: { zone: 'A' }, scale: { picks: 1.1 } } },
      { table: 'skus', update: { where: { zone: ['A', 'B'], picks: { gte: 5, lte: 25 } }, set: { note: 'hot', fragile: true } } },
      { table: 'skus', update: { where: {}, set: { boxes: 2 }, scale: { picks: 0.5 } } },
      { table: 'skus', update: { where: { since: { gte: '2024-05-01' } }, set: { since: null } } },
      { table: 'skus', insert: [{ sku: 'S9', zone: 'C', picks: 1.5 }] },
      { table: 'skus', delete: { where: { note: null } } },
      { table: 'extra', insert: [{}] },
    ];
    expect(validateEdits(edits, shapes)).toEqual({ ok: true, edits });
  });

  it('reports every problem of every edit at once, each at its path', () => {
    const errors = errorsOf([
      { table: 'nope', update: { where: {}, set: { a: 1 } } },
      { table: 'skus', update: { where: { zone: 3 }, set: { picks: 'many', ghost: 1 } } },
      { table: 'skus', update: { where: { zone: [] }, scale: { zone: 2, boxes: 'x' } } },
      { table: 'skus', update: { where: { picks: {} } } },
      { table: 'skus', insert: [{ zone: 'A', picks: 1 }, { sku: null, zone: 'A', picks: 1 }] },
      { table: 'skus', delete: {} },
      { table: 'skus', update: { where: {}, set: { picks: 2 } }, delete: { where: {} } },
      'not an edit',
      { table: 'skus', update: { where: { fragile: { gte: true } }, set: { picks: 1 }, extra: 1 } },
      { table: 'skus', update: { where: { picks: { gte: 9, lte: 1 } }, set: { zone: 'B' }, scale: { picks: Infinity } } },
      { table: 'skus', insert: [] },
      { table: 'skus', update: { where: {}, set: { picks: 1 }, scale: { picks: 2 } } },
      { update: { where: {}, set: { picks: 1 } } },
    ]);
    expect(errors.map((e) => e.path)).toEqual([
      'edits[0].table',
      'edits[1].update.where.zone',
      'edits[1].update.set.picks',
      'edits[1].update.set.ghost',
      'edits[2].update.where.zone',
      'edits[2].update.scale.zone',
      'edits[2].update.scale.boxes',
      'edits[3].update.where.picks',
      'edits[3].update',
      'edits[4].insert[0].sku',
      'edits[4].insert[1].sku',
      'edits[5].delete.where',
      'edits[6]',
      'edits[7]',
      'edits[8].update.extra',
      'edits[8].update.where.fragile',
      'edits[9].update.where.picks',
      'edits[9].update.scale.picks',
      'edits[10].insert',
      'edits[11].update.scale.picks',
      'edits[12].table',
    ]);
    const byPath = new Map(errors.map((e) => [e.path, e.message]));
    expect(byPath.get('edits[0].table')).toMatch(/no table 'nope'; its tables are 'skus', 'locations', 'extra'/);
    expect(byPath.get('edits[1].update.where.zone')).toBe('must be a string value, got 3');
    expect(byPath.get('edits[1].update.set.picks')).toBe('must be a float value, got "many"');
    expect(byPath.get('edits[1].update.set.ghost')).toBe("table 'skus' has no column 'ghost'");
    expect(byPath.get('edits[2].update.where.zone')).toMatch(/at least one value/);
    expect(byPath.get('edits[2].update.scale.zone')).toMatch(/only integer and float columns scale/);
    expect(byPath.get('edits[2].update.scale.boxes')).toMatch(/finite number, got "x"/);
    expect(byPath.get('edits[3].update.where.picks')).toMatch(/gte, lte or both/);
    expect(byPath.get('edits[3].update')).toMatch(/needs set or scale/);
    expect(byPath.get('edits[4].insert[0].sku')).toMatch(/no default and may not be empty/);
    expect(byPath.get('edits[4].insert[1].sku')).toMatch(/may not be empty/);
    expect(byPath.get('edits[5].delete.where')).toMatch(/required/);
    expect(byPath.get('edits[6]')).toMatch(/exactly one of update, insert or delete/);
    expect(byPath.get('edits[7]')).toBe('must be an object');
    expect(byPath.get('edits[8].update.extra')).toMatch(/not a field here/);
    expect(byPath.get('edits[8].update.where.fragile')).toMatch(/not a range/);
    expect(byPath.get('edits[9].update.where.picks')).toMatch(/gte is above lte/);
    expect(byPath.get('edits[9].update.scale.picks')).toMatch(/finite number/);
    expect(byPath.get('edits[10].insert')).toMatch(/at least one row/);
    expect(byPath.get('edits[11].update.scale.picks')).toMatch(/both set and scaled/);
    expect(byPath.get('edits[12].table')).toMatch(/must name the table/);
  });

  it('refuses a list that is not one', () => {
    expect(pathsOf({ table: 'skus' })).toEqual(['edits']);
  });

  it('takes an empty list: a plain copy', () => {
    expect(validateEdits([], shapes)).toEqual({ ok: true, edits: [] });
  });

  it('lets a table the domain does not declare hold empty cells', () => {
    expect(errorsOf([{ table: 'extra', update: { where: {}, set: { n: null } } }])).toEqual([]);
    expect(pathsOf([{ table: 'skus', update: { where: {}, set: { zone: null } } }])).toEqual(['edits[0].update.set.zone']);
  });

  it('refuses an integer that is not a whole or safe number', () => {
    expect(pathsOf([{ table: 'skus', update: { where: {}, set: { boxes: 1.5 } } }])).toEqual(['edits[0].update.set.boxes']);
    expect(pathsOf([{ table: 'skus', update: { where: { boxes: 2 ** 60 }, set: { boxes: 1 } } }])).toEqual(['edits[0].update.where.boxes']);
  });
});
