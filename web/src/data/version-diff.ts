import { diffTables, type TableDiff } from 'scenarist/table-diff';
import type { DatasetForm, SchemaGroup } from '../api/types.ts';

/**
 * Two versions of a dataset compared table by table with the row comparison Compare's inputs use (the
 * server's own code, `scenarist/table-diff`): rows matched by each table's primary key as the domain's
 * schema declares it (every column when it declares none).
 */
export function diffVersions(from: DatasetForm, to: DatasetForm, groups: readonly SchemaGroup[] | undefined): TableDiff[] {
  return diffTables(asTables(from), asTables(to), (table) => primaryKeyOf(table, groups));
}

type Tables = Parameters<typeof diffTables>[0];
/**
 * The JSON form is the server's table model written out (docs/api/contract.md): column types are the
 * model's and cells are JSON scalars. The document types it loosely (`DatasetForm`), so it is named here.
 */
const asTables = (form: DatasetForm): Tables => form.tables as unknown as Tables;

/** A table's primary-key columns, from the schema groups (none when the table is not in them). */
export function primaryKeyOf(table: string, groups: readonly SchemaGroup[] | undefined): string[] {
  for (const group of groups ?? []) {
    const found = group.tables.find((t) => t.name === table);
    if (found) return found.columns.filter((c) => c.key === 'primary').map((c) => c.name);
  }
  return [];
}

/** Whether two versions hold the same rows in every table (nothing to list). */
export const sameContent = (diffs: readonly TableDiff[]) =>
  diffs.every((d) => d.status === 'compared' && d.rows_added === 0 && d.rows_removed === 0 && d.rows_changed === 0);
