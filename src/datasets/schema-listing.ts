import type { Dataset } from '../domain/dataset-model.js';
import type { ColumnSpec, Schemas } from '../domain/dataset-schema.js';

/** Where a column is a key: its table's primary key, a unique column, or neither. */
export type ColumnKey = 'primary' | 'unique' | null;

export interface ListedColumn {
  readonly name: string;
  readonly type: ColumnSpec['type'];
  /** Whether the file must have the column (an optional one takes its default when absent). */
  readonly required: boolean;
  /** Whether its cells may be empty. */
  readonly nullable: boolean;
  readonly key: ColumnKey;
  readonly unit: string | null;
  readonly description: string | null;
}

export interface ListedGroup {
  readonly name: string;
  readonly description: string | null;
  readonly required: boolean;
  /** The names an upload's file for this group may have: the group's name with each readable extension. */
  readonly file_names: string[];
  readonly tables: { name: string; description: string | null; columns: ListedColumn[] }[];
}

/** The extensions the ETL reads a group's file from (see `etl/readers/registry.ts`). */
const EXTENSIONS = ['csv', 'xlsx', 'json'] as const;

/**
 * The schema groups as a client sees them (`GET /sessions/{sid}/schemas`): what to upload, file by file,
 * with each column's type, key and whether it may be empty, so a person or a program can prepare the files.
 */
export function listSchemas(schemas: Schemas): ListedGroup[] {
  return Object.entries(schemas).map(([name, group]) => ({
    name,
    description: group.description ?? null,
    required: group.required ?? true,
    file_names: EXTENSIONS.map((ext) => `${name}.${ext}`),
    tables: Object.entries(group.tables).map(([table, spec]) => ({
      name: table,
      description: spec.description ?? null,
      columns: Object.entries(spec.columns).map(([column, c]) => ({
        name: column,
        type: c.type,
        required: c.required ?? true,
        nullable: c.nullable ?? false,
        key: c.primaryKey ? 'primary' : c.unique ? 'unique' : null,
        unit: c.unit ?? null,
        description: c.description ?? null,
      })),
    })),
  }));
}

/** A group's tables with their columns and no rows: exported, it is the group's template file. */
export function emptyGroupDataset(schemas: Schemas, groupName: string): Dataset | undefined {
  const group = Object.hasOwn(schemas, groupName) ? schemas[groupName] : undefined;
  if (!group) return undefined;
  const tables = Object.fromEntries(
    Object.entries(group.tables).map(([table, spec]) => [
      table,
      { columns: Object.entries(spec.columns).map(([column, c]) => ({ name: column, type: c.type })), rows: [] },
    ]),
  );
  return { key: groupName, kind: 'master', createdAt: new Date(0).toISOString(), tables };
}
