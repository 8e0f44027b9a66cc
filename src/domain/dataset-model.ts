/** The typed-table model every dataset is made of, whatever its source. */

export const COLUMN_TYPES = ['string', 'integer', 'float', 'boolean', 'datetime'] as const;
export type ColumnType = (typeof COLUMN_TYPES)[number];

/** One value of a table. `datetime` cells hold ISO 8601 strings; a missing value is `null`. */
export type Cell = string | number | boolean | null;

export interface Column {
  readonly name: string;
  readonly type: ColumnType;
}

/** Column-typed rows: `rows[i][j]` is the value of `columns[j]` in row `i`. */
export interface Table {
  readonly columns: readonly Column[];
  readonly rows: readonly (readonly Cell[])[];
}

export type Tables = Readonly<Record<string, Table>>;

export type DatasetKind = 'master' | 'derived';

export interface Dataset {
  readonly key: string;
  readonly kind: DatasetKind;
  /** ISO 8601 instant the dataset was stored. */
  readonly createdAt: string;
  readonly tables: Tables;
}
