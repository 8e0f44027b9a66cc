import type { Table } from '../../domain/dataset-model.js';
import type { Schemas, TableSpec } from '../../domain/dataset-schema.js';

/** The spec of table `name` in whichever schema group declares it. */
function specOf(name: string, schemas: Schemas): TableSpec | undefined {
  for (const group of Object.values(schemas)) {
    const spec = group.tables[name];
    if (spec) return spec;
  }
  return undefined;
}

/**
 * The keys a violation may name in `table`: the values of its one primary-key column, or, for a table
 * whose schema declares none (or a key of several columns), the 0-based row positions.
 */
export function rowKeys(name: string, table: Table, schemas: Schemas): ReadonlySet<unknown> {
  const spec = specOf(name, schemas);
  const keyColumns = spec ? Object.entries(spec.columns).filter(([, column]) => column.primaryKey === true) : [];
  const index = keyColumns.length === 1 ? table.columns.findIndex((c) => c.name === keyColumns[0]![0]) : -1;
  if (index < 0) return new Set(table.rows.keys());
  return new Set(table.rows.map((row) => row[index]));
}
