import type { Cell, Table } from '../../domain/dataset-model.js';
import type { DomainRegistry } from '../../domain/registry.js';
import { resultKeysOf } from '../../domain/result-type.js';
import { diffTable, type TableDiff } from '../tree/table-diff.js';

/** One keyed result table of a scenario against the same table of another's result: `diffTable`'s comparison. */
export type ResultTableDiff = Extract<TableDiff, { status: 'compared' }>;

/** The keyed result tables two algorithms share: the same table name with the same key. */
export function sharedResultKeys(domain: DomainRegistry, fromAlgo: string, toAlgo: string): [string, readonly string[]][] {
  const from = resultKeysOf(domain.algorithm(fromAlgo)?.result);
  const to = resultKeysOf(domain.algorithm(toAlgo)?.result);
  return Object.entries(to).filter(([table, key]) => sameKey(from[table], key));
}

/** Whether `algoName` returns a result with at least one keyed table. */
export function hasKeyedResult(domain: DomainRegistry, algoName: string): boolean {
  return Object.keys(resultKeysOf(domain.algorithm(algoName)?.result)).length > 0;
}

const sameKey = (a: readonly string[] | undefined, b: readonly string[]) => a !== undefined && a.length === b.length && a.every((k, i) => k === b[i]);

/**
 * Each keyed result table of `to` against `from`, row by row by its key, with the very comparison
 * Compare's `inputs` makes of dataset tables (so the counts and the 20 examples mean the same).
 */
export function diffResults(from: unknown, to: unknown, keys: readonly (readonly [string, readonly string[]])[]): ResultTableDiff[] {
  return keys.map(([name, key]) => {
    const [before, after] = resultTables(rowsAt(from, name), rowsAt(to, name), key);
    // Both sides share one column list, so the comparison is always of rows, never of columns.
    return diffTable(name, before, after, key) as ResultTableDiff;
  });
}

/** The churn of a set of table diffs: rows added, removed or changed, and their share of every row key on either side. */
export function churnOf(diffs: readonly ResultTableDiff[]): { rows_changed: number; share: number } {
  let changed = 0;
  let total = 0;
  for (const d of diffs) {
    changed += d.rows_added + d.rows_removed + d.rows_changed;
    total += d.rows_added + d.rows_removed + d.rows_changed + d.rows_unchanged;
  }
  return { rows_changed: changed, share: total === 0 ? 0 : changed / total };
}

/** The row objects of result table `name`: the array member of that name (anything else holds no rows). */
function rowsAt(result: unknown, name: string): readonly Record<string, unknown>[] {
  if (typeof result !== 'object' || result === null) return [];
  const rows = (result as Record<string, unknown>)[name];
  if (!Array.isArray(rows)) return [];
  return rows.filter((row): row is Record<string, unknown> => typeof row === 'object' && row !== null && !Array.isArray(row));
}

/**
 * Both sides as tables over one column list: the key first, then every other member either side's rows
 * have. A member a row lacks is null; a member that is not a cell (an object, an array) is its JSON text.
 */
function resultTables(from: readonly Record<string, unknown>[], to: readonly Record<string, unknown>[], key: readonly string[]): [Table, Table] {
  const names = new Set(key);
  for (const row of from) for (const name of Object.keys(row)) names.add(name);
  for (const row of to) for (const name of Object.keys(row)) names.add(name);
  const columns = [...names].map((name) => ({ name, type: 'string' as const }));
  const table = (rows: readonly Record<string, unknown>[]): Table => ({ columns, rows: rows.map((row) => columns.map((c) => cellOf(row[c.name]))) });
  return [table(from), table(to)];
}

function cellOf(value: unknown): Cell {
  if (value === undefined || value === null) return null;
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean') return value;
  return JSON.stringify(value) ?? null;
}
