import type { DomainRegistry } from '../../domain/registry.js';
import { describeParams } from '../../params/describe.js';

/** What a scenario chose: its algorithm and both parameter sets, as stored. */
export interface ChosenInputs {
  readonly algoName: string;
  readonly algoParamsJson: string;
  readonly dataParamsJson: string;
}

/** A parameter whose value differs between two scenarios: `from` the earlier (parent, baseline), `to` the other. */
export interface ParameterChange {
  /** `algorithm`, an algorithm parameter's name, or `data_params.<name>`. */
  readonly name: string;
  readonly from: unknown;
  readonly to: unknown;
}

function parseObject(json: string): Record<string, unknown> {
  const value: unknown = JSON.parse(json);
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/** Every value a scenario runs with, defaults filled in as its payload shows them, by name. */
function valuesOf(inputs: ChosenInputs, domain: DomainRegistry): Map<string, unknown> {
  const values = new Map<string, unknown>();
  const algorithm = domain.algorithm(inputs.algoName);
  if (algorithm) for (const d of describeParams(domain.parametersOf(algorithm), parseObject(inputs.algoParamsJson))) values.set(d.name, d.value);
  for (const d of describeParams(domain.dataParameters, parseObject(inputs.dataParamsJson))) values.set(`data_params.${d.name}`, d.value);
  return values;
}

/**
 * The inputs that differ from `from` to `to`: the algorithm when it is another, then each parameter
 * whose value differs (null on the side whose algorithm lacks it), in `from`'s order then `to`'s.
 */
export function parameterChanges(from: ChosenInputs, to: ChosenInputs, domain: DomainRegistry): ParameterChange[] {
  const changes: ParameterChange[] = [];
  if (from.algoName !== to.algoName) changes.push({ name: 'algorithm', from: from.algoName, to: to.algoName });
  const before = valuesOf(from, domain);
  const after = valuesOf(to, domain);
  for (const name of new Set([...before.keys(), ...after.keys()])) {
    const a = before.has(name) ? before.get(name) : null;
    const b = after.has(name) ? after.get(name) : null;
    if (JSON.stringify(a) !== JSON.stringify(b)) changes.push({ name, from: a, to: b });
  }
  return changes;
}
