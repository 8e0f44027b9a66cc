import type { Cell, Column, ColumnType } from '../../domain/dataset-model.js';
import type { Schemas, TableSpec } from '../../domain/dataset-schema.js';

/** What the edits of one table are checked against: the stored columns, with the domain's rules where it declares the table. */
export interface ColumnShape {
  readonly name: string;
  readonly type: ColumnType;
  /** Whether an empty cell (null) is allowed; a table the domain does not declare allows it everywhere. */
  readonly nullable: boolean;
  /** The value an inserted row takes when it leaves the column out; undefined: it must be given unless nullable. */
  readonly default: Cell | undefined;
}

export interface TableShape {
  readonly columns: readonly ColumnShape[];
  /** Columns that together identify a row (the domain's `primaryKey` columns); empty when none. */
  readonly primaryKey: readonly string[];
  /** Columns whose values must not repeat (`unique`). */
  readonly unique: readonly string[];
}

export type TableShapes = ReadonlyMap<string, TableShape>;

/** The shape of each stored table: its columns, with the rules of the domain's schema for the tables it declares. */
export function tableShapes(tables: readonly { readonly name: string; readonly columns: readonly Column[] }[], schemas: Schemas): TableShapes {
  const specs = new Map<string, TableSpec>();
  for (const group of Object.values(schemas)) for (const [name, spec] of Object.entries(group.tables)) specs.set(name, spec);
  return new Map(tables.map((t) => [t.name, shapeOf(t.columns, specs.get(t.name))]));
}

function shapeOf(columns: readonly Column[], spec: TableSpec | undefined): TableShape {
  const declared = (name: string) => spec?.columns[name];
  return {
    columns: columns.map((c) => {
      const column = declared(c.name);
      const primaryKey = column?.primaryKey === true;
      return {
        name: c.name,
        type: c.type,
        nullable: column === undefined || (column.nullable === true && !primaryKey),
        default: column?.default ?? (column === undefined || column.nullable === true ? null : undefined),
      };
    }),
    primaryKey: columns.filter((c) => declared(c.name)?.primaryKey === true).map((c) => c.name),
    unique: columns.filter((c) => declared(c.name)?.unique === true).map((c) => c.name),
  };
}
