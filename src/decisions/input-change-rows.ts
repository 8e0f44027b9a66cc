import type { Cell } from '../domain/dataset-model.js';
import type { DataDifference, InputDifference } from '../scenarios/tree/compare-inputs.js';
import type { TableDiff } from '../scenarios/tree/table-diff.js';

/** One line of a report's "Input changes" sheet: which scenario, what kind of change, to what, and what it did. */
export type InputChangeRow = [tag: string, kind: string, what: string, from: Cell, to: Cell];

const json = (value: unknown): Cell => (value === undefined ? null : typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean' || value === null ? value : JSON.stringify(value));

function tableRow(tag: string, diff: TableDiff): InputChangeRow {
  switch (diff.status) {
    case 'only_in_from':
      return [tag, 'table removed', diff.table, `${diff.rows} rows`, null];
    case 'only_in_to':
      return [tag, 'table added', diff.table, null, `${diff.rows} rows`];
    case 'columns_differ':
      return [tag, 'table columns', diff.table, diff.columns_removed.join(', '), diff.columns_added.join(', ')];
    case 'compared':
      return [tag, 'table rows', diff.table, `${diff.rows_removed} removed, ${diff.rows_changed} changed`, `${diff.rows_added} added, ${diff.rows_unchanged} unchanged`];
  }
}

function dataRows(tag: string, data: DataDifference): InputChangeRow[] {
  if (data.relation === 'unrelated') return data.tables.map((diff) => tableRow(tag, diff));
  // One family: the baseline's side of the shared ancestor is undone, the scenario's side is applied.
  const steps = [...data.from_steps.map((step) => ({ step, side: 'baseline side' })), ...data.to_steps.map((step) => ({ step, side: 'edit' }))];
  return steps.flatMap(({ step, side }) => step.edits.map((edit): InputChangeRow => [tag, side, `${step.parent} → ${step.dataset}`, null, json(edit)]));
}

/**
 * Compare's `inputs` as flat rows for a sheet: each parameter that differs (from → to), each edit of a
 * derived dataset (as its JSON, with its effect), and each table of an unrelated dataset summarised.
 */
export function inputChangeRows(changes: readonly InputDifference[], tagOf: (id: string) => string): InputChangeRow[] {
  return changes.flatMap((change) => {
    const tag = tagOf(change.scenario_id);
    const parameters = change.parameters.map((p): InputChangeRow => [tag, 'parameter', p.name, json(p.from), json(p.to)]);
    return [...parameters, ...(change.data ? dataRows(tag, change.data) : [])];
  });
}
