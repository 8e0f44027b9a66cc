import type { CompareResult } from '../api/types.ts';
import type { RecordedEdit } from '../whatif/edits.ts';

/**
 * Compare's `inputs` (docs/api/what-if.md): for each scenario against the baseline, the parameters that
 * differ and the data that differs. Between datasets of one family the data is the chain of edits from
 * the baseline's dataset to the scenario's; between unrelated datasets of one schema, a per-table
 * summary by the table's key columns with a few example rows.
 */
export interface ParameterDifference {
  name: string;
  baseline: unknown;
  value: unknown;
}

export interface TableDifference {
  table: string;
  added: number;
  removed: number;
  changed: number;
  /** Up to 20 rows, each as `{ column: value }` with how it differs. */
  examples: { change: 'added' | 'removed' | 'changed'; key: Record<string, unknown>; values?: Record<string, unknown> }[];
}

export type DataDifference =
  | { kind: 'same' }
  | { kind: 'edits'; edits: RecordedEdit[] }
  | { kind: 'tables'; tables: TableDifference[] };

export interface ScenarioInputs {
  scenario_id: string;
  parameters: ParameterDifference[];
  data: DataDifference;
}

/** The comparison's inputs, or none from a server that does not send them. */
export function inputsOf(result: CompareResult): ScenarioInputs[] {
  const inputs = (result as CompareResult & { inputs?: ScenarioInputs[] }).inputs;
  return Array.isArray(inputs) ? inputs : [];
}

/** Whether a scenario's inputs are the baseline's in every respect. */
export const sameInputs = (inputs: ScenarioInputs) => inputs.parameters.length === 0 && inputs.data.kind === 'same';
