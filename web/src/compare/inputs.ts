import type { CompareResult } from '../api/types.ts';
import type { ScenarioInputs } from '../api/what-if.ts';

/**
 * Compare's `inputs` (docs/api/what-ifs.md): for each scenario but the baseline, the parameters that
 * differ from the baseline's (`from`: the baseline's value, `to`: this one's) and the data that differs:
 * between datasets of one family the chains of edits, between unrelated datasets a per-table summary
 * by the table's key columns with up to 20 example rows; null on the baseline's own dataset.
 */
export type InputData = NonNullable<ScenarioInputs['data']>;
export type TableDiff = Extract<InputData, { relation: 'unrelated' }>['tables'][number];

/** The comparison's inputs (none from an older server, which does not send them). */
export const inputsOf = (result: CompareResult): readonly ScenarioInputs[] => result.inputs ?? [];

/** Whether a scenario's inputs are the baseline's in every respect. */
export const sameInputs = (inputs: ScenarioInputs) => inputs.parameters.length === 0 && inputs.data === null;
