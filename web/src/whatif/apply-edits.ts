import { editRows, type Column as RuleColumn, type ScaledCell } from 'scenarist/edit-rules';
import type { Column } from '../api/types.ts';
import { isInsert, isUpdate, type Cell, type Edit } from './edits.ts';

/** One table of a dataset's JSON form: its columns and its rows as arrays in column order. */
export interface TableForm {
  columns: readonly Column[];
  rows: readonly (readonly unknown[])[];
}

/** What a scale did to one column, for the planner to check before creating the branch. */
export interface ScaleEffect {
  column: string;
  factor: number;
  /** The first few distinct changes, in row order (2 → 1, 1 → 1). */
  samples: { before: number; after: number }[];
  /** The column's sum over the scaled rows: before, as stored after, and as the exact products would be. */
  total: { before: number; after: number; exact: number };
  /** Cells of an integer column whose stored value is not the exact product, and the first of them. */
  rounded: number;
  firstRounded?: { before: number; exact: number; after: number };
}

export interface Preview {
  tables: Record<string, TableForm>;
  /** Rows each edit touched; undefined where the edit names a table or column the base lacks (the server refuses it). */
  rows: (number | undefined)[];
  /** For each edit, what its scales did (empty for other edits). */
  scaled: ScaleEffect[][];
}

const SAMPLES = 3;

/**
 * The editor's preview of what the server will store: the edits applied in order to a copy of the base
 * tables by the server's own rules (`scenarist/edit-rules`, the code its derive runs), with the rows
 * each touched and what each scale did. The server still checks types and keys (it is the judge of
 * those); the preview's matching and values are the server's by construction. Untouched tables and
 * rows are shared with the base, not copied.
 */
export function applyEdits(base: Readonly<Record<string, TableForm>>, edits: readonly Edit[]): Preview {
  const tables: Record<string, TableForm> = { ...base };
  const scaled: ScaleEffect[][] = [];
  const rows = edits.map((edit) => {
    const effects: ScaleEffect[] = [];
    scaled.push(effects);
    const table = tables[edit.table];
    if (!table || !namesOnly(table.columns, edit)) return undefined;
    const working = [...(table.rows as readonly (readonly Cell[])[])];
    const byColumn = new Map<number, ScaleEffect>();
    const onScaled = (cell: ScaledCell) => {
      let effect = byColumn.get(cell.column);
      if (!effect) {
        const column = table.columns[cell.column]!.name;
        effect = { column, factor: isUpdate(edit) ? edit.update.scale![column]! : 1, samples: [], total: { before: 0, after: 0, exact: 0 }, rounded: 0 };
        byColumn.set(cell.column, effect);
        effects.push(effect);
      }
      note(effect, cell);
    };
    const touched = editRows(ruleColumns(table.columns), working, edit, { onScaled });
    tables[edit.table] = { columns: table.columns, rows: working };
    return touched;
  });
  return { tables, rows, scaled };
}

function note(effect: ScaleEffect, { before, exact, after }: ScaledCell): void {
  effect.total.before += before;
  effect.total.after += after;
  effect.total.exact += exact;
  if (effect.samples.length < SAMPLES && !effect.samples.some((s) => s.before === before)) effect.samples.push({ before, after });
  if (after !== exact) {
    effect.rounded += 1;
    effect.firstRounded ??= { before, exact, after };
  }
}

/** Whether every column the edit names is one of the table's (the server refuses the edit otherwise, so the preview leaves it out). */
function namesOnly(columns: readonly Column[], edit: Edit): boolean {
  const known = new Set(columns.map((c) => c.name));
  const named = isInsert(edit)
    ? edit.insert.flatMap((row) => Object.keys(row))
    : isUpdate(edit)
      ? [...Object.keys(edit.update.where), ...Object.keys(edit.update.set ?? {}), ...Object.keys(edit.update.scale ?? {})]
      : Object.keys(edit.delete.where);
  return named.every((name) => known.has(name));
}

/**
 * The columns as the edit rules take them. The API's dataset summary types a column's type as any
 * text; the server stores only its five column types, and a type the rules do not know compares as is.
 */
export const ruleColumns = (columns: readonly Column[]) => columns as readonly RuleColumn[];
