import type { SchemaGroup, TableSpec } from '../../domain/dataset-schema.js';

/** Tables of a group that are not nested under another table of the group, in declaration order. */
export function rootTables(group: SchemaGroup): string[] {
  return Object.entries(group.tables)
    .filter(([, spec]) => spec.parent === undefined)
    .map(([name]) => name);
}

/** Tables declared as nested under `parent`, in declaration order. */
export function childTables(group: SchemaGroup, parent: string): [string, TableSpec & { parent: NonNullable<TableSpec['parent']> }][] {
  const children: [string, TableSpec & { parent: NonNullable<TableSpec['parent']> }][] = [];
  for (const [name, spec] of Object.entries(group.tables)) {
    if (spec.parent?.table === parent) children.push([name, { ...spec, parent: spec.parent }]);
  }
  return children;
}

/** The single primary-key column of a table, whose value a nested child row receives. */
export function primaryKeyColumn(spec: TableSpec): string | undefined {
  const keys = Object.entries(spec.columns).filter(([, column]) => column.primaryKey);
  return keys.length === 1 ? keys[0]![0] : undefined;
}
