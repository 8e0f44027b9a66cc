import type { Cell } from '../dataset-model.js';

/**
 * The edit language of `derive` (docs/api/what-ifs.md, "Data edits"): each edit names one table and
 * updates, inserts or deletes rows of it. Edits are data: they are stored with the derived dataset.
 */

/** A range of a number, date-time or text column; both ends included, either may be left open. */
export interface RangeCondition {
  readonly gte?: number | string;
  readonly lte?: number | string;
}

/** One column's condition: a value (null: the cell is empty), any of several values, or a range. */
export type Condition = Cell | Cell[] | RangeCondition;

/** Conditions by column; a row matches when all hold. `{}` matches every row. */
export type Where = Readonly<Record<string, Condition>>;

/** A row to insert, by column; a column left out takes its declared default, else null. */
export type RowValues = Readonly<Record<string, Cell>>;

export interface UpdateEdit {
  readonly table: string;
  readonly update: {
    readonly where: Where;
    /** New values by column. */
    readonly set?: RowValues;
    /** Factors by numeric column; an integer column's products are rounded to the nearest integer. */
    readonly scale?: Readonly<Record<string, number>>;
  };
}

export interface InsertEdit {
  readonly table: string;
  readonly insert: RowValues[];
}

export interface DeleteEdit {
  readonly table: string;
  readonly delete: { readonly where: Where };
}

export type DataEdit = UpdateEdit | InsertEdit | DeleteEdit;

/** An edit as it is stored and shown: with its effect, the rows it updated, inserted or deleted. */
export type EditEffect = DataEdit & { readonly rows: number };

export function isUpdate(edit: DataEdit): edit is UpdateEdit {
  return 'update' in edit;
}

export function isInsert(edit: DataEdit): edit is InsertEdit {
  return 'insert' in edit;
}

export function isRange(condition: Condition): condition is RangeCondition {
  return typeof condition === 'object' && condition !== null && !Array.isArray(condition);
}
