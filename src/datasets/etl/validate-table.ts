import type { Cell, Table } from '../../domain/dataset-model.js';
import type { TableSpec } from '../../domain/dataset-schema.js';
import { Invalid, isEmptyCell } from './coerce.js';
import { checkKeys } from './key-checks.js';
import type { MessageLog } from './messages.js';
import { BadCell, type RawCell, type RawTable, type RowLocation } from './readers/reader.js';
import { reportRow } from './row-messages.js';
import { showValue } from './show-value.js';
import { planColumns, REQUIRED, type ColumnPlan, type TableWhere } from './table-plan.js';

/**
 * Turns a raw table into a typed one: columns in schema declaration order with their declared types,
 * each cell coerced, and every problem logged with its location. Rows whose cells are all empty are
 * skipped (without renumbering the others). A cell that cannot be used becomes null; the caller decides
 * from the log's errors whether the table is usable at all.
 */
export async function validateTable(spec: TableSpec, raw: RawTable, where: TableWhere, log: MessageLog): Promise<Table> {
  const plans = planColumns(spec, raw.header, where, log);
  const locate = raw.locate ?? ((index: number): RowLocation => ({ row: index + 1 }));
  const width = raw.header.length;
  const cells: Cell[][] = [];
  const sourceIndex: number[] = [];
  await raw.forEachRow((row, index) => {
    if (isBlankRow(row)) return;
    if (row.length > width && !isBlankRow(row, width)) reportWideRow(row, width, locate(index), where, log);
    cells.push(coerceRow(row, plans, index, locate, where, log));
    sourceIndex.push(index);
  });
  checkKeys(plans, cells, (r) => locate(sourceIndex[r]!), where, log);
  return { columns: plans.map(({ name, type }) => ({ name, type })), rows: cells };
}

function coerceRow(row: readonly RawCell[], plans: readonly ColumnPlan[], index: number, locate: (index: number) => RowLocation, where: TableWhere, log: MessageLog): Cell[] {
  const out: Cell[] = new Array<Cell>(plans.length);
  for (let c = 0; c < plans.length; c++) {
    const plan = plans[c]!;
    if (plan.source < 0) {
      out[c] = plan.absentValue;
      continue;
    }
    const value = row[plan.source];
    if (isEmptyCell(value)) {
      out[c] = plan.whenEmpty === REQUIRED ? null : plan.whenEmpty;
      if (plan.whenEmpty === REQUIRED) {
        reportRow(log, 'required', `empty values in column '${plan.name}'`, where, plan.name, locate(index), `column '${plan.name}' needs a value; to allow empty cells, declare it with nullable: true`);
      }
      continue;
    }
    const cell = plan.coerce(value);
    if (cell instanceof Invalid) {
      out[c] = null;
      const text = value instanceof BadCell ? `${value.problem} cannot be a ${plan.type}` : `${showValue(value)} is not a valid ${plan.type}: ${cell.reason}`;
      reportRow(log, 'coerce', `values that are not a valid ${plan.type}`, where, plan.name, locate(index), text);
      continue;
    }
    out[c] = cell;
  }
  return out;
}

/** Whether every cell from `from` on is empty; most rows answer at their first cell. */
function isBlankRow(row: readonly RawCell[], from = 0): boolean {
  for (let c = from; c < row.length; c++) if (!isEmptyCell(row[c])) return false;
  return true;
}

function reportWideRow(row: readonly RawCell[], width: number, at: RowLocation, where: TableWhere, log: MessageLog): void {
  reportRow(log, 'wide-row', 'rows with more values than header columns', where, undefined, at,
    `the row has ${row.length} values but the header only ${width} columns`);
}
