import type { RowRef } from '../api/explanations.ts';
import type { FilterCondition } from '../whatif/filter.ts';

/** The what-if editor's opening filter for a violation's rows: per table, its key is one of theirs. */
export interface RowFilter {
  /** Per table: one condition, its primary-key column is one of the rows' keys. */
  readonly filters: Record<string, FilterCondition[]>;
  /** The table the editor opens at: the first one filtered. */
  readonly table: string | undefined;
  /**
   * Tables whose rows cannot be filtered to: no single primary-key column (a row is named by its
   * position there), a key holding a comma (the editor's "is one of" separates values by commas), or
   * a table the dataset does not have.
   */
  readonly unfiltered: readonly string[];
}

export function rowFilter(rows: readonly RowRef[], keyColumns: ReadonlyMap<string, readonly string[]>, tables: readonly string[]): RowFilter {
  const byTable = new Map<string, string[]>();
  for (const r of rows) byTable.set(r.table, [...new Set([...(byTable.get(r.table) ?? []), String(r.key)])]);
  const filters: Record<string, FilterCondition[]> = {};
  const unfiltered: string[] = [];
  for (const [table, keys] of byTable) {
    const columns = keyColumns.get(table) ?? [];
    if (!tables.includes(table) || columns.length !== 1 || keys.some((k) => k.includes(','))) unfiltered.push(table);
    else filters[table] = [{ column: columns[0]!, op: 'one-of', value: keys.join(', '), to: '' }];
  }
  return { filters, table: Object.keys(filters)[0], unfiltered };
}
