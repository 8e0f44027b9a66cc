import type { BetterWhen } from '../domain/define.js';
import type { DomainRegistry } from '../domain/registry.js';
import { describeParams } from '../params/describe.js';
import type { ScenarioRecord } from '../store/scenarios-repository.js';
import type { ScenarioStatus } from '../model/run-state/state-machine.js';

export type Comparison = 'better' | 'worse' | 'equal';

export interface KpiComparisonValue {
  readonly scenario_id: string;
  /** Null unless the scenario is COMPLETE. */
  readonly value: number | null;
  /** value − baseline value; null when either is null. */
  readonly delta: number | null;
  /** delta / |baseline value|; null when the baseline value is 0 or either value is null. */
  readonly relative_delta: number | null;
  readonly comparison: Comparison | null;
}

export interface KpiComparison {
  readonly name: string;
  readonly unit: string;
  readonly better_when: BetterWhen;
  readonly threshold: number | null;
  /** The scenario with the best value (the first of equals, in request order); null when none has one. */
  readonly best: string | null;
  readonly values: KpiComparisonValue[];
}

export interface ParameterComparison {
  readonly name: string;
  readonly values: { readonly scenario_id: string; readonly value: unknown }[];
  /** Whether any two of the scenarios have different values. */
  readonly differs: boolean;
}

export interface CompareView {
  readonly baseline: string;
  readonly scenarios: { id: string; tag: string; status: ScenarioStatus; algorithm: string; dataset_key: string }[];
  readonly kpis: KpiComparison[];
  readonly parameters: ParameterComparison[];
}

/** HIGHER and AT_LEAST: a larger value is better; LOWER and AT_MOST: a smaller one. */
export const higherIsBetter = (betterWhen: BetterWhen) => betterWhen === 'HIGHER' || betterWhen === 'AT_LEAST';

/** How `value` compares with the baseline's under the KPI's direction; null when either is missing. */
export function compareValue(value: number | null, baseline: number | null, betterWhen: BetterWhen): Comparison | null {
  if (value === null || baseline === null) return null;
  if (value === baseline) return 'equal';
  return value > baseline === higherIsBetter(betterWhen) ? 'better' : 'worse';
}

export function deltaOf(value: number | null, baseline: number | null): { delta: number | null; relative_delta: number | null } {
  if (value === null || baseline === null) return { delta: null, relative_delta: null };
  const delta = value - baseline;
  return { delta, relative_delta: baseline === 0 ? null : delta / Math.abs(baseline) };
}

function kpiValues(record: ScenarioRecord): Record<string, unknown> {
  if (record.status !== 'COMPLETE' || record.kpiValuesJson === null) return {};
  return JSON.parse(record.kpiValuesJson) as Record<string, unknown>;
}

function parseObject(json: string): Record<string, unknown> {
  const value: unknown = JSON.parse(json);
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}

/**
 * Parameters side by side: the algorithm parameters (each scenario's value as its descriptor shows it,
 * defaults filled in; null where its algorithm has no such parameter), then the data parameters as
 * `data_params.<name>`.
 */
function compareParameters(records: readonly ScenarioRecord[], domain: DomainRegistry): ParameterComparison[] {
  const rows = new Map<string, Map<string, unknown>>();
  const put = (name: string, scenarioId: string, value: unknown) => {
    let row = rows.get(name);
    if (!row) rows.set(name, (row = new Map<string, unknown>()));
    row.set(scenarioId, value);
  };
  for (const record of records) {
    const algorithm = domain.algorithm(record.algoName);
    const descriptors = algorithm ? describeParams(domain.parametersOf(algorithm), parseObject(record.algoParamsJson)) : [];
    for (const d of descriptors) put(d.name, record.id, d.value);
  }
  for (const record of records) {
    for (const d of describeParams(domain.dataParameters, parseObject(record.dataParamsJson))) put(`data_params.${d.name}`, record.id, d.value);
  }
  return [...rows].map(([name, row]) => {
    const values = records.map((r) => ({ scenario_id: r.id, value: row.has(r.id) ? row.get(r.id) : null }));
    const texts = new Set(values.map((v) => JSON.stringify(v.value)));
    return { name, values, differs: texts.size > 1 };
  });
}

/**
 * Scenarios side by side against a baseline: per KPI each value, its delta and relative delta to the
 * baseline's and whether it is better; the parameters with the differing ones marked. `records` are
 * in the order the client asked for them; `baselineId` is one of them.
 */
export function compareScenarios(records: readonly ScenarioRecord[], baselineId: string, domain: DomainRegistry): CompareView {
  const valuesById = new Map(records.map((r) => [r.id, kpiValues(r)]));
  const numberOf = (id: string, kpi: string): number | null => {
    const value = valuesById.get(id)?.[kpi];
    return typeof value === 'number' ? value : null;
  };
  // A KPI that measures none of the compared scenarios' algorithms is left out; one that measures some
  // of them has null values for the others.
  const measuresSome = (kpiName: string) => records.some((r) => !domain.algorithm(r.algoName) || domain.applies(kpiName, r.algoName));
  const kpis = domain.kpis.filter((kpi) => measuresSome(kpi.name)).map((kpi): KpiComparison => {
    const baseline = numberOf(baselineId, kpi.name);
    let best: { id: string; value: number } | undefined;
    const values = records.map((r): KpiComparisonValue => {
      const value = numberOf(r.id, kpi.name);
      if (value !== null && (best === undefined || (higherIsBetter(kpi.betterWhen) ? value > best.value : value < best.value))) {
        best = { id: r.id, value };
      }
      return { scenario_id: r.id, value, ...deltaOf(value, baseline), comparison: compareValue(value, baseline, kpi.betterWhen) };
    });
    return { name: kpi.name, unit: kpi.unit, better_when: kpi.betterWhen, threshold: kpi.threshold ?? null, best: best?.id ?? null, values };
  });
  return {
    baseline: baselineId,
    scenarios: records.map((r) => ({ id: r.id, tag: r.tag, status: r.status, algorithm: r.algoName, dataset_key: r.datasetKey })),
    kpis,
    parameters: compareParameters(records, domain),
  };
}
