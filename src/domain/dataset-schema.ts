import type { Cell, ColumnType } from './dataset-model.js';

/** How a domain declares the tables an ETL upload must produce. */
export interface ColumnSpec {
  readonly type: ColumnType;
  /** A required column must be present in the file; an optional one takes `default` when absent. Default: true. */
  readonly required?: boolean;
  /** Value for an absent optional column, and for empty cells of a non-nullable optional column. */
  readonly default?: Cell;
  /** Whether empty cells are allowed (stored as null). Default: false. */
  readonly nullable?: boolean;
  readonly primaryKey?: boolean;
  readonly unique?: boolean;
  /** The unit of the column's numbers (e.g. `m`, `kg`), shown to people preparing the file. */
  readonly unit?: string;
  readonly description?: string;
}

export interface TableSpec {
  readonly columns: Readonly<Record<string, ColumnSpec>>;
  /**
   * For one-level nested JSON documents: rows of this table arrive as arrays under `field` in the records
   * of the `table` table; the parent's primary-key value is copied into this table's `foreignKey` column.
   */
  readonly parent?: { readonly table: string; readonly field: string; readonly foreignKey: string };
  readonly description?: string;
}

/**
 * A schema group is what one uploaded file fills: the file named `<group>.<ext>` provides its tables
 * (CSV: the group's single root table; XLSX: one sheet per table, or the single sheet for a one-table group;
 * JSON: an array of records for the root table, children nested per `parent`).
 */
export interface SchemaGroup {
  readonly tables: Readonly<Record<string, TableSpec>>;
  /** Whether an upload must include this group's file. Default: true. */
  readonly required?: boolean;
  readonly description?: string;
}

export type Schemas = Readonly<Record<string, SchemaGroup>>;
