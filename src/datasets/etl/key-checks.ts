import type { Cell } from '../model.js';
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
  const keyOf = columns.length === 1 ? (row: readonly Cell[]) => row[columns[0]!]! : (row: readonly Cell[]) => JSON.stringify(columns.map((c) => row[c]));
  const firstRow = new Map<Cell, number>();
  for (let r = 0; r < cells.length; r++) {
    const row = cells[r]!;
    if (columns.some((c) => row[c] === null)) continue;
    const key = keyOf(row);
    const first = firstRow.get(key);
    if (first === undefined) {
      firstRow.set(key, r);
      continue;
    }
    const shown = columns.map((c) => showValue(row[c])).join(', ');
    const label = names.length === 1 ? `'${names[0]}'` : `(${names.join(', ')})`;
    reportRow(log, 'duplicate-key', 'duplicate primary keys', where, names.length === 1 ? names[0] : undefined, locate(r),
      `duplicate primary key ${label} = ${shown}: already used by row ${locate(first).row}`);
  }
}

function checkUnique(column: number, plan: ColumnPlan, cells: readonly (readonly Cell[])[], locate: (output: number) => RowLocation, where: TableWhere, log: MessageLog): void {
  const firstRow = new Map<Cell, number>();
  for (let r = 0; r < cells.length; r++) {
    const value = cells[r]![column]!;
    if (value === null) continue;
    const first = firstRow.get(value);
    if (first === undefined) {
      firstRow.set(value, r);
      continue;
    }
    reportRow(log, 'unique', `repeated values in unique column '${plan.name}'`, where, plan.name, locate(r),
      `${showValue(value)} in unique column '${plan.name}' repeats row ${locate(first).row}`);
  }
}

