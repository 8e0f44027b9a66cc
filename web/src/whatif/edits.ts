/**
 * Edits to a dataset's tables, as `POST .../data/{key}/derive` and `POST .../scenarios/{id}/branch` take
 * them (docs/api/what-if.md): each names one table and does one thing, update, insert or delete.
 * The wire's `where` maps a column to a value, a list of values, or a `{ gte?, lte? }` range; all of a
 * where's conditions hold at once, and `{}` is every row.
 */
export type Cell = string | number | boolean | null;

// Type aliases, not interfaces: the generated schema types a request's edits as `{ [key: string]: unknown }`,
// which only an alias (with its implicit index signature) is assignable to.
export type Range = {
  gte?: number | string;
  lte?: number | string;
};

export type Condition = Cell | Cell[] | Range;

export type Where = Record<string, Condition>;

export type UpdateEdit = {
  table: string;
  update: { where: Where; set?: Record<string, Cell>; scale?: Record<string, number> };
};

export type InsertEdit = {
  table: string;
  insert: Record<string, Cell>[];
};

export type DeleteEdit = {
  table: string;
  delete: { where: Where };
};

export type Edit = UpdateEdit | InsertEdit | DeleteEdit;

/** An edit as a derived dataset records it: with the number of rows it touched (`0` is kept, and flagged). */
export type RecordedEdit = Edit & { rows: number };

export const isUpdate = (edit: Edit): edit is UpdateEdit => 'update' in edit;
export const isInsert = (edit: Edit): edit is InsertEdit => 'insert' in edit;
export const isDelete = (edit: Edit): edit is DeleteEdit => 'delete' in edit;

export const isRange = (condition: Condition): condition is Range =>
  typeof condition === 'object' && condition !== null && !Array.isArray(condition);
