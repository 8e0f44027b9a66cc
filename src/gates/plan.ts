import type { DomainRegistry } from '../domain/registry.js';
import type { AnyAlgorithm, BetterWhen as DomainBetterWhen } from '../domain/define.js';
import type { FieldError } from '../errors.js';
import { errors } from '../error-factories.js';
import { ParameterError } from '../params/errors.js';
import { validateParams } from '../params/validate.js';
import type { GateRequest, GateSideRequest } from './request.js';
import type { BetterWhen } from './statistics.js';

/** One side as stored: its algorithm and validated parameters (defaults filled in). */
export interface PlannedSide {
  readonly algo_name: string;
  readonly algo_params: Record<string, unknown>;
  readonly data_params: Record<string, unknown>;
}

/** A KPI the gate judges, with the direction it is judged in and the effect a pass needs. */
export interface JudgedKpi {
  readonly name: string;
  readonly better_when: BetterWhen;
  readonly min_effect: number;
}

export interface GatePlan {
  readonly baseline: PlannedSide;
  readonly candidate: PlannedSide;
  readonly kpis: readonly JudgedKpi[];
  readonly rule: { readonly must_pass: readonly string[]; readonly must_not_fail: readonly string[] };
}

const asObject = (value: unknown): Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};

/** A threshold KPI is judged by the way it points: AT_LEAST as HIGHER, AT_MOST as LOWER. */
const direction = (betterWhen: DomainBetterWhen): BetterWhen => (betterWhen === 'HIGHER' || betterWhen === 'AT_LEAST' ? 'HIGHER' : 'LOWER');

function planSide(domain: DomainRegistry, side: GateSideRequest, path: 'baseline' | 'candidate', repeats: number, fieldErrors: FieldError[]): { planned: PlannedSide; algorithm: AnyAlgorithm } {
  const algorithm = domain.algorithm(side.algoName);
  if (!algorithm) throw errors.algorithmNotFound(side.algoName);
  const validated = (kind: 'algo_params' | 'data_params', decls: Parameters<typeof validateParams>[0], value: unknown) => {
    try {
      return validateParams(decls, asObject(value));
    } catch (err) {
      if (!(err instanceof ParameterError)) throw err;
      fieldErrors.push({ path: `${path}.${kind}`, message: err.message });
      return {};
    }
  };
  const algoParams = validated('algo_params', domain.parametersOf(algorithm), side.algoParams);
  const dataParams = validated('data_params', domain.dataParameters, side.dataParams);
  const seed = algorithm.seedParameter;
  if (seed !== undefined && repeats > 1 && asObject(side.algoParams)[seed] !== undefined && asObject(side.algoParams)[seed] !== null) {
    // Each pair's seed reaches the run as its ctx.random seed, which the seed parameter would override.
    throw errors.gateInvalid([{ path: `${path}.algo_params.${seed}`, message: `fixes the seed of every repeat, so the ${repeats} pairs would be the same run; leave it unset (each pair then takes its own seed), or use repeats 1` }]);
  }
  return { planned: { algo_name: algorithm.name, algo_params: algoParams, data_params: dataParams }, algorithm };
}

/**
 * Checks a gate request against the domain before anything is stored: 404 for an unknown algorithm,
 * 400 PARAMETER_INVALID listing every invalid parameter of either side, 400 GATE_INVALID for a KPI
 * that is unknown or applies to neither side, a rule or min_effect naming a KPI the gate does not
 * judge, or a seed parameter fixed while repeats are above 1. Inputs are resolved by the service.
 */
export function planGate(domain: DomainRegistry, request: GateRequest): GatePlan {
  const fieldErrors: FieldError[] = [];
  const baseline = planSide(domain, request.baseline, 'baseline', request.repeats, fieldErrors);
  const candidate = planSide(domain, request.candidate, 'candidate', request.repeats, fieldErrors);
  if (fieldErrors.length > 0) throw errors.gateParametersInvalid(fieldErrors);

  const bothApply = (kpi: string) => domain.applies(kpi, baseline.algorithm.name) && domain.applies(kpi, candidate.algorithm.name);
  const problems: FieldError[] = [];
  let names: string[];
  if (request.kpis === undefined) {
    names = domain.kpis.map((k) => k.name).filter(bothApply);
    if (names.length === 0) problems.push({ path: 'kpis', message: `no KPI of the domain applies to both '${baseline.algorithm.name}' and '${candidate.algorithm.name}'` });
  } else {
    names = [...new Set(request.kpis)];
    if (names.length === 0) problems.push({ path: 'kpis', message: 'lists no KPI; leave it out to judge every KPI that applies to both sides' });
    names.forEach((name, i) => {
      if (!domain.kpiNames.includes(name)) problems.push({ path: `kpis[${i}]`, message: `unknown KPI '${name}' (known: ${domain.kpiNames.join(', ') || 'none'})` });
      else if (!bothApply(name)) problems.push({ path: `kpis[${i}]`, message: `KPI '${name}' does not apply to both '${baseline.algorithm.name}' and '${candidate.algorithm.name}'` });
    });
  }
  const judged = new Set(names);
  const effects = typeof request.minEffect === 'number' ? {} : request.minEffect;
  for (const [name, value] of Object.entries(effects)) {
    if (!judged.has(name)) problems.push({ path: `min_effect.${name}`, message: `names a KPI the gate does not judge (it judges: ${names.join(', ')})` });
    else if (!(value >= 0)) problems.push({ path: `min_effect.${name}`, message: 'must be a number ≥ 0' });
  }
  const ruleList = (key: 'must_pass' | 'must_not_fail'): string[] => {
    const listed = request.rule?.[key];
    if (listed === undefined) return names;
    listed.forEach((name, i) => {
      if (!judged.has(name)) problems.push({ path: `rule.${key}[${i}]`, message: `'${name}' is not a KPI the gate judges (it judges: ${names.join(', ')})` });
    });
    return [...new Set(listed)];
  };
  const rule = { must_pass: ruleList('must_pass'), must_not_fail: ruleList('must_not_fail') };
  if (problems.length > 0) throw errors.gateInvalid(problems);

  const kpis = names.map((name) => {
    const kpi = domain.kpis.find((k) => k.name === name)!;
    const minEffect = typeof request.minEffect === 'number' ? request.minEffect : (request.minEffect[name] ?? 0);
    return { name, better_when: direction(kpi.betterWhen), min_effect: minEffect };
  });
  return { baseline: baseline.planned, candidate: candidate.planned, kpis, rule };
}
