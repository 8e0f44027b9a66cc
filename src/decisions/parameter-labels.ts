import type { DomainRegistry } from '../domain/registry.js';
import { describeParams, humanised } from '../params/describe.js';
import type { ParameterComparison } from '../scenarios/compare.js';
import type { ScenarioRecord } from '../store/scenarios-repository.js';

/** A compared parameter as a report freezes it: with the label its declaration gives it, so the report reads as the dashboard does. */
export interface FrozenParameter extends ParameterComparison {
  /** The declared label (else the name humanised, as discovery shows it); a data parameter's without its `data_params.` prefix. */
  readonly label: string;
}

const DATA_PARAM = 'data_params.';

/**
 * Each compared parameter with its label, looked up when the report is saved: a report outlives its
 * scenarios and may outlive the domain's declarations, so the label is frozen beside the name. Two
 * algorithms declaring one name with different labels: the first compared scenario's wins.
 */
export function labelledParameters(parameters: readonly ParameterComparison[], records: readonly Pick<ScenarioRecord, 'algoName'>[], domain: DomainRegistry): FrozenParameter[] {
  const labels = new Map<string, string>();
  for (const record of records) {
    const algorithm = domain.algorithm(record.algoName);
    for (const d of algorithm ? describeParams(domain.parametersOf(algorithm)) : []) if (!labels.has(d.name)) labels.set(d.name, d.label);
  }
  for (const d of describeParams(domain.dataParameters)) labels.set(`${DATA_PARAM}${d.name}`, d.label);
  return parameters.map((p) => ({
    ...p,
    label: labels.get(p.name) ?? humanised(p.name.startsWith(DATA_PARAM) ? p.name.slice(DATA_PARAM.length) : p.name),
  }));
}
