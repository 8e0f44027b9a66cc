import type { Table } from '../../domain/dataset-model.js';
import { isInsert, type DataEdit, type EditEffect } from '../../domain/edits/edit-model.js';
import type { FieldError } from '../../errors.js';
import { applyEdits } from '../edits/apply-edits.js';
import { editProblems } from '../edits/edit-problems.js';
import type { TableShapes } from '../edits/table-shape.js';
import { validateEdits } from '../edits/validate-edits.js';

/** An edit that no longer fits the new data: where it is among its dataset's edits, and why. */
export interface EditConflict {
  /** Its index among the dataset's edits. */
  readonly index: number;
  /** `edits[3].update.set.daily_picks`: the edit's path, as a derive names it. */
  readonly path: string;
  readonly message: string;
}

/** One dataset's edits replayed on new parent tables. */
export interface Replayed {
  /** The edits that fit, in their order, each with its effect on the new data. */
  readonly effects: EditEffect[];
  /** The new content of each table the applied edits changed. */
  readonly tables: ReadonlyMap<string, Table>;
  /** Every problem of every edit that no longer fits, in the order of the edits. */
  readonly conflicts: EditConflict[];
}

const INDEX_OF_PATH = /^edits\[(\d+)\]/;

/** The edit as it was given: its stored effect (`rows`) is not part of the edit language. */
export function editOf(effect: EditEffect): DataEdit {
  const { rows: _rows, ...edit } = effect;
  return edit;
}

/**
 * Re-applies a derived dataset's edits, in order, to its parent's new tables (`tables` holds at least
 * the tables they name). An edit conflicts when it no longer fits: it names a table or column the
 * data no longer has (or a value its column's type refuses), it would repeat a key, or its `where`
 * matched rows before and matches none now. The edits that fit are applied without the conflicting
 * ones, so every conflict of every edit is found in one pass, and the caller decides: refuse them all
 * (nothing stored) or store what fits and record what was skipped.
 */
export function replayEdits(tables: Readonly<Record<string, Table>>, previous: readonly EditEffect[], shapes: TableShapes): Replayed {
  const conflicts: EditConflict[] = [];
  let fitting: number[] = [];
  previous.forEach((effect, index) => {
    const check = validateEdits([editOf(effect)], shapes);
    if (check.ok) fitting.push(index);
    else conflicts.push(...check.errors.map((e) => conflictAt(index, e)));
  });
  // What only the rows show (a repeated key, a scaled value out of range) is found as the edits apply;
  // each such edit is set aside and the others applied again without it, until none is left.
  for (;;) {
    const outcome = applyEdits(tables, fitting.map((i) => editOf(previous[i]!)), shapes);
    if (outcome.ok) return settled(previous, fitting, outcome.rows, outcome.tables, conflicts);
    const failed = new Set<number>();
    for (const error of outcome.errors) {
      const index = fitting[Number(INDEX_OF_PATH.exec(error.path)?.[1] ?? 0)]!;
      failed.add(index);
      conflicts.push(conflictAt(index, error));
    }
    fitting = fitting.filter((i) => !failed.has(i));
  }
}

/** The applied edits with their new effects; a `where` that found rows before and none now is a conflict too. */
function settled(previous: readonly EditEffect[], applied: readonly number[], rows: readonly number[], tables: ReadonlyMap<string, Table>, conflicts: EditConflict[]): Replayed {
  const effects: EditEffect[] = [];
  applied.forEach((index, j) => {
    const before = previous[index]!;
    const now = rows[j]!;
    // It changed nothing in the new tables, so leaving it out changes nothing either.
    if (before.rows > 0 && now === 0 && !isInsert(before)) conflicts.push({ index, path: `edits[${index}]`, message: editProblems.matchesNoRowNow(before.table, before.rows) });
    else effects.push({ ...editOf(before), rows: now });
  });
  conflicts.sort((a, b) => a.index - b.index);
  return { effects, tables, conflicts };
}

function conflictAt(index: number, error: FieldError): EditConflict {
  return { index, path: error.path.replace(INDEX_OF_PATH, `edits[${index}]`), message: error.message };
}
