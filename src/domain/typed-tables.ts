import type { Cell, Column, DatasetKind } from './dataset-model.js';
import type { ColumnSpec, Schemas, TableSpec } from './dataset-schema.js';

/**
 * The types of a dataset as a domain reads it: every table of the schemas, its rows as objects typed
 * from the column specs. `DatasetOf<typeof schemas>` is what `prepare` (or, without one, every
 * algorithm and KPI) receives; reading a table the schemas do not declare is a compile error.
 */

/** The TypeScript type of a cell of each column type (`datetime` cells are ISO 8601 strings). */
export interface CellTypes {
  readonly string: string;
  readonly integer: number;
  readonly float: number;
  readonly boolean: boolean;
  readonly datetime: string;
}

/**
 * Whether a column's cells can be null, as the ETL fills them (src/datasets/etl/table-plan.ts): a
 * nullable column's empty cells, and an optional column absent from the file without a non-null
 * default. A primary key is never null.
 */
export type MayBeNull<C extends ColumnSpec> = C extends { readonly primaryKey: true }
  ? false
  : true extends Prop<C, 'nullable'> // `true`, or `boolean` when the spec is not known statically
    ? true
    : false extends Prop<C, 'required'>
      ? Prop<C, 'default'> extends string | number | boolean
        ? false
        : true
      : false;

/** The type of property `K` of `C`, `undefined` when `C` lacks it. */
type Prop<C, K extends string> = C extends { readonly [P in K]?: infer V } ? V : undefined;

/** The value of one cell of a column declared by `C`. */
export type CellOf<C extends ColumnSpec> = CellTypes[C['type']] | (MayBeNull<C> extends true ? null : never);

/** One row of a table declared by `T`, by column name. */
export type RowOf<T extends TableSpec> = { readonly [K in keyof T['columns'] & string]: CellOf<T['columns'][K]> };

/** The row shape of a table whose schema is not known statically. */
export type AnyRow = Readonly<Record<string, Cell>>;

/** One table of a dataset, read through its schema. */
export interface TypedTable<Row extends object = AnyRow> {
  readonly name: string;
  /** The number of rows. */
  readonly length: number;
  /** The schema's columns, in declaration order, with their types. */
  readonly columns: readonly Column[];
  /** The rows as objects (built on first access, then kept). */
  readonly rows: readonly Row[];
  /**
   * One column's values, `column(c)[i] === rows[i][c]`, without building row objects: the fast path
   * for large tables (built on first access, then kept).
   */
  column<K extends keyof Row & string>(name: K): readonly Row[K][];
}

/** Every table name the schemas declare (each group's tables, all groups together). */
export type TableName<S extends Schemas> = { [G in keyof S]: keyof S[G]['tables'] & string }[keyof S];

/** The spec of table `T`, whichever group declares it. */
export type TableSpecOf<S extends Schemas, T extends string> = {
  [G in keyof S]: T extends keyof S[G]['tables'] ? S[G]['tables'][T] : never;
}[keyof S];

export type TablesOf<S extends Schemas> = { readonly [T in TableName<S>]: TypedTable<RowOf<TableSpecOf<S, T>>> };

/** A dataset read through schemas `S`. */
export interface DatasetOf<S extends Schemas> {
  readonly key: string;
  readonly kind: DatasetKind;
  /** ISO 8601 instant the dataset was stored. */
  readonly createdAt: string;
  readonly tables: TablesOf<S>;
}

/** A dataset read through schemas not known statically: every table may be absent. */
export type AnyDataset = DatasetOf<Schemas>;
