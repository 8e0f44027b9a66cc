import type { Cell } from '../../domain/dataset-model.js';
import type { MessageLog } from './messages.js';
import type { RowLocation } from './readers/reader.js';
import { reportRow } from './row-messages.js';
import { showValue } from './show-value.js';
import type { ColumnPlan, TableWhere } from './table-plan.js';

/**
 * Reports rows whose primary key (one column or several together) repeats an earlier row's, and
 * repeated values in `unique` columns, naming both rows. Empty values are not compared: they were
 * reported already where they are not allowed. One map pass per key, so linear in the rows.
 */
export function checkKeys(plans: readonly ColumnPlan[], cells: readonly (readonly Cell[])[], locate: (output: number) => RowLocation, where: TableWhere, log: MessageLog): void {
  const keyColumns = plans.map((plan, c) => (plan.primaryKey ? c : -1)).filter((c) => c >= 0);
  if (keyColumns.length > 0) checkPrimaryKey(keyColumns, plans, cells, locate, where, log);
  plans.forEach((plan, c) => {
    const alreadyKey = keyColumns.length === 1 && keyColumns[0] === c;
    if (plan.unique && !alreadyKey) checkUnique(c, plan, cells, locate, where, log);
  });
}

function checkPrimaryKey(columns: number[], plans: readonly ColumnPlan[], cells: readonly (readonly Cell[])[], locate: (output: number) => RowLocation, where: TableWhere, log: MessageLog): void {
  const names = columns.map((c) => plans[c]!.name);
  const label = names.length === 1 ? `'${names[0]}'` : `(${names.join(', ')})`;
  const keyOf: (row: readonly Cell[]) => Cell | undefined =
    columns.length === 1
      ? (row) => row[columns[0]!] ?? undefined
      : (row) => (columns.some((c) => row[c] === null) ? undefined : JSON.stringify(columns.map((c) => row[c])));
  for (const { row, first } of repeats(cells, keyOf)) {
    const shown = columns.map((c) => showValue(cells[row]![c])).join(', ');
    reportRow(log, 'duplicate-key', 'duplicate primary keys', where, names.length === 1 ? names[0] : undefined, locate(row),
      `duplicate primary key ${label} = ${shown}: already used by row ${locate(first).row}`);
  }
}

function checkUnique(column: number, plan: ColumnPlan, cells: readonly (readonly Cell[])[], locate: (output: number) => RowLocation, where: TableWhere, log: MessageLog): void {
  for (const { row, first } of repeats(cells, (r) => r[column] ?? undefined)) {
    reportRow(log, 'unique', `repeated values in unique column '${plan.name}'`, where, plan.name, locate(row),
      `${showValue(cells[row]![column])} in unique column '${plan.name}' repeats row ${locate(first).row}`);
  }
}

/**
 * Every row whose key (`undefined`: no key) repeats an earlier row's, with that earlier row, in row
 * order. Repeats are rare, so the pass over all rows only tests membership (a Set, about half the cost
 * of a Map of first rows on a million keys); first rows are looked up in a second pass only for the
 * keys that repeat.
 */
function repeats(cells: readonly (readonly Cell[])[], keyOf: (row: readonly Cell[]) => Cell | undefined): { row: number; first: number }[] {
  const seen = new Set<Cell>();
  const repeated = new Set<Cell>();
  for (let r = 0; r < cells.length; r++) {
    const key = keyOf(cells[r]!);
    if (key === undefined) continue;
    const before = seen.size;
    seen.add(key);
    if (seen.size === before) repeated.add(key);
  }
  if (repeated.size === 0) return [];
  const firstRow = new Map<Cell, number>();
  const found: { row: number; first: number }[] = [];
  for (let r = 0; r < cells.length; r++) {
    const key = keyOf(cells[r]!);
    if (key === undefined || !repeated.has(key)) continue;
    const first = firstRow.get(key);
    if (first === undefined) firstRow.set(key, r);
    else found.push({ row: r, first });
  }
  return found;
}
