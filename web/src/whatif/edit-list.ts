import { isUpdate, type Cell, type Edit, type Where } from './edits.ts';

/**
 * Adds a cell's new value to the list. Typing into the same row's cells one after another makes one
 * edit ("capacity set to 3, x set to 2 where location = A-01"), not one per keystroke or cell: the
 * last edit takes the value when it sets values on exactly that row and nothing else.
 */
export function withCellValue(edits: readonly Edit[], table: string, where: Where, column: string, value: Cell): Edit[] {
  const last = edits[edits.length - 1];
  if (last && isUpdate(last) && last.table === table && !last.update.scale && sameWhere(last.update.where, where)) {
    return [...edits.slice(0, -1), { table, update: { where, set: { ...last.update.set, [column]: value } } }];
  }
  return [...edits, { table, update: { where, set: { [column]: value } } }];
}

export const withoutEdit = (edits: readonly Edit[], index: number): Edit[] => edits.filter((_, i) => i !== index);

function sameWhere(a: Where, b: Where): boolean {
  const names = Object.keys(a);
  return names.length === Object.keys(b).length && names.every((name) => JSON.stringify(a[name]) === JSON.stringify(b[name]));
}
