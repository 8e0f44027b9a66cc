import type { CompareResult } from '../api/types.ts';
import type { DataRelation, ParameterChange } from '../api/what-if.ts';

/**
 * Compare's `inputs` (docs/api/what-ifs.md): for each scenario but the baseline, the parameters that
 * differ from the baseline's (`from`: the baseline's value, `to`: this one's) and the data that differs:
 * between datasets of one family the chains of edits, between unrelated datasets a per-table summary
 * by the table's key columns with up to 20 example rows; null on the baseline's own dataset.
 */
type Cell = string | number | boolean | null;
type Row = Record<string, Cell>;

export interface TableDiff {
  table: string;
  status: 'compared' | 'columns_differ' | 'only_in_from' | 'only_in_to';
  rows?: number;
  columns_added?: string[];
  columns_removed?: string[];
  key?: string[];
  rows_added?: number;
  rows_removed?: number;
  rows_changed?: number;
  rows_unchanged?: number;
  added?: Row[];
  removed?: Row[];
  changed?: { key: Row; changes: Record<string, { from: Cell; to: Cell }> }[];
}

export type InputData = Extract<DataRelation, { relation: 'family' }> | { relation: 'unrelated'; from: string; to: string; tables: TableDiff[] };

export interface ScenarioInputs {
  scenario_id: string;
  parameters: ParameterChange[];
  data: InputData | null;
}

/** The comparison's inputs, or none from a server that does not send them. */
export function inputsOf(result: CompareResult): ScenarioInputs[] {
  const inputs = (result as CompareResult & { inputs?: ScenarioInputs[] }).inputs;
  return Array.isArray(inputs) ? inputs : [];
}

/** Whether a scenario's inputs are the baseline's in every respect. */
export const sameInputs = (inputs: ScenarioInputs) => inputs.parameters.length === 0 && inputs.data === null;
