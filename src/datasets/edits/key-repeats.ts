import type { Cell } from '../../domain/dataset-model.js';
import type { TableShape } from './table-shape.js';

/** Columns whose values together must not repeat: the primary key, or one unique column. */
export interface KeyColumns {
  readonly kind: 'primary key' | 'unique';
  readonly columns: readonly string[];
}

/** The primary key (one or more columns), then each unique column that is not the key itself. */
export function keyColumnSets(shape: TableShape): KeyColumns[] {
  const sets: KeyColumns[] = shape.primaryKey.length > 0 ? [{ kind: 'primary key', columns: shape.primaryKey }] : [];
  for (const name of shape.unique) {
    if (!(shape.primaryKey.length === 1 && shape.primaryKey[0] === name)) sets.push({ kind: 'unique', columns: [name] });
  }
  return sets;
}

/**
 * The first row at or after `from` whose values in `columns` repeat an earlier row's, or undefined.
 * Rows with an empty (null) value in the key are not compared, as the upload's key checks do not.
 */
export function findRepeat(rows: readonly (readonly Cell[])[], columns: readonly number[], from: number): number | undefined {
  const seen = new Set<Cell>();
  const keyOf: (row: readonly Cell[]) => Cell | undefined =
    columns.length === 1 ? (row) => row[columns[0]!] ?? undefined : (row) => (columns.some((c) => row[c] === null) ? undefined : JSON.stringify(columns.map((c) => row[c])));
  for (let r = 0; r < rows.length; r++) {
    const key = keyOf(rows[r]!);
    if (key === undefined) continue;
    if (seen.has(key)) {
      if (r >= from) return r;
    } else {
      seen.add(key);
    }
  }
  return undefined;
}
