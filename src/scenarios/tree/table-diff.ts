import type { Cell, Table } from '../../domain/dataset-model.js';

/** At most this many example rows of each kind (added, removed, changed) per table. */
export const MAX_EXAMPLES = 20;

export type RowObject = Readonly<Record<string, Cell>>;

/** A row present on both sides whose other columns differ: its key, and each differing column's values. */
export interface ChangedRow {
  readonly key: RowObject;
  readonly changes: Readonly<Record<string, { readonly from: Cell; readonly to: Cell }>>;
}

/**
 * How one table of a dataset differs from the same table of another (`from`: the baseline's).
 * Rows are matched by `key` (the table's primary-key columns; every column when it declares none,
 * and then a row is only ever added or removed).
 */
export type TableDiff =
  | { readonly table: string; readonly status: 'only_in_from' | 'only_in_to'; readonly rows: number }
  | {
      readonly table: string;
      readonly status: 'columns_differ';
      /** Columns (with their types) only `to` has, and only `from` has. */
      readonly columns_added: string[];
      readonly columns_removed: string[];
    }
  | {
      readonly table: string;
      readonly status: 'compared';
      readonly key: string[];
      readonly rows_added: number;
      readonly rows_removed: number;
      readonly rows_changed: number;
      readonly rows_unchanged: number;
      readonly added: RowObject[];
      readonly removed: RowObject[];
      readonly changed: ChangedRow[];
    };

const columnSignature = (table: Table) => table.columns.map((c) => `${c.name}:${c.type}`);

/** A table's rows keyed by the text of their key cells; repeated keys are kept apart, in order. */
class KeyedRows {
  private readonly first = new Map<string, number>();
  private readonly repeats = new Map<string, number[]>();

  constructor(rows: readonly (readonly Cell[])[], keyOf: (row: readonly Cell[]) => string) {
    rows.forEach((row, i) => {
      const key = keyOf(row);
      if (!this.first.has(key)) this.first.set(key, i);
      else {
        const more = this.repeats.get(key);
        if (more) more.push(i);
        else this.repeats.set(key, [i]);
      }
    });
  }

  /** Takes the next row of this key; undefined when none is left. */
  take(key: string): number | undefined {
    const index = this.first.get(key);
    if (index === undefined) return undefined;
    const more = this.repeats.get(key);
    if (more && more.length > 0) this.first.set(key, more.shift()!);
    else this.first.delete(key);
    return index;
  }

  /** The rows never taken, in no particular order. */
  *left(): Generator<number> {
    yield* this.first.values();
    for (const more of this.repeats.values()) yield* more;
  }
}

/**
 * Compares `to` with `from`, a table of the same name in two datasets. One pass over each side with
 * a hash map of `from`'s keys: linear in the rows, so two 100,000-row tables compare in tens of
 * milliseconds. Column order may differ between the sides; column names and types may not.
 */
export function diffTable(name: string, from: Table, to: Table, declaredKey: readonly string[]): TableDiff {
  const before = new Set(columnSignature(from));
  const after = new Set(columnSignature(to));
  if (before.size !== after.size || [...before].some((c) => !after.has(c))) {
    return {
      table: name,
      status: 'columns_differ',
      columns_added: [...after].filter((c) => !before.has(c)),
      columns_removed: [...before].filter((c) => !after.has(c)),
    };
  }
  const columns = from.columns.map((c) => c.name);
  // `to`'s cells read in `from`'s column order.
  const toIndex = columns.map((c) => to.columns.findIndex((t) => t.name === c));
  const reorder = toIndex.every((j, i) => j === i) ? (row: readonly Cell[]) => row : (row: readonly Cell[]) => toIndex.map((j) => row[j] ?? null);
  const key = declaredKey.length > 0 && declaredKey.every((k) => columns.includes(k)) ? declaredKey : columns;
  const keyIndex = key.map((k) => columns.indexOf(k));
  const keyOf = keyIndex.length === 1 ? (row: readonly Cell[]) => JSON.stringify(row[keyIndex[0]!] ?? null) : (row: readonly Cell[]) => JSON.stringify(keyIndex.map((i) => row[i] ?? null));
  const asObject = (row: readonly Cell[], only: readonly number[] = columns.map((_, i) => i)): RowObject =>
    Object.fromEntries(only.map((i) => [columns[i]!, row[i] ?? null]));

  const keyed = new KeyedRows(from.rows, keyOf);
  const added: RowObject[] = [];
  const changed: ChangedRow[] = [];
  let rowsAdded = 0;
  let rowsChanged = 0;
  let rowsUnchanged = 0;
  for (const raw of to.rows) {
    const row = reorder(raw);
    const match = keyed.take(keyOf(row));
    if (match === undefined) {
      rowsAdded++;
      if (added.length < MAX_EXAMPLES) added.push(asObject(row));
      continue;
    }
    const old = from.rows[match]!;
    let differs: Record<string, { from: Cell; to: Cell }> | undefined;
    for (let i = 0; i < columns.length; i++) {
      const a = old[i] ?? null;
      const b = row[i] ?? null;
      if (a !== b) (differs ??= {})[columns[i]!] = { from: a, to: b };
    }
    if (!differs) rowsUnchanged++;
    else {
      rowsChanged++;
      if (changed.length < MAX_EXAMPLES) changed.push({ key: asObject(row, keyIndex), changes: differs });
    }
  }
  const removed: RowObject[] = [];
  let rowsRemoved = 0;
  for (const index of keyed.left()) {
    rowsRemoved++;
    if (removed.length < MAX_EXAMPLES) removed.push(asObject(from.rows[index]!));
  }
  return {
    table: name,
    status: 'compared',
    key: [...key],
    rows_added: rowsAdded,
    rows_removed: rowsRemoved,
    rows_changed: rowsChanged,
    rows_unchanged: rowsUnchanged,
    added,
    removed,
    changed,
  };
}

/** Every table of two datasets compared, `from`'s tables first, then those only `to` has. */
export function diffTables(
  from: Readonly<Record<string, Table>>,
  to: Readonly<Record<string, Table>>,
  keyColumns: (table: string) => readonly string[],
): TableDiff[] {
  const diffs: TableDiff[] = [];
  for (const [name, table] of Object.entries(from)) {
    const other = to[name];
    diffs.push(other ? diffTable(name, table, other, keyColumns(name)) : { table: name, status: 'only_in_from', rows: table.rows.length });
  }
  for (const [name, table] of Object.entries(to)) {
    if (!(name in from)) diffs.push({ table: name, status: 'only_in_to', rows: table.rows.length });
  }
  return diffs;
}
