import type { BetterWhen, CompareResult, Comparison, Scenario } from './types.ts';

/** Higher is better for HIGHER and AT_LEAST, lower for LOWER and AT_MOST (the API's rule). */
export function higherIsBetter(betterWhen: BetterWhen): boolean {
  return betterWhen === 'HIGHER' || betterWhen === 'AT_LEAST';
}

export function comparisonOf(delta: number | null, betterWhen: BetterWhen): Comparison {
  if (delta === null) return null;
  if (delta === 0) return 'equal';
  return delta > 0 === higherIsBetter(betterWhen) ? 'better' : 'worse';
}

/**
 * The comparison the server's `GET .../compare` returns, computed from full scenarios; used only
 * against a server without that route, so the page works the same either way.
 */
export function compareLocally(all: readonly Scenario[], ids: readonly string[], baseline: string): CompareResult {
  const byId = new Map(all.map((sc) => [sc.id, sc]));
  const chosen = ids.map((id) => byId.get(id)).filter((sc): sc is Scenario => sc !== undefined);
  const base = byId.get(baseline);
  const kpiNames = [...new Set(chosen.flatMap((sc) => Object.keys(sc.kpis)))];
  const kpis = kpiNames.map((name) => {
    const sample = chosen.map((sc) => sc.kpis[name]).find((k) => k !== undefined)!;
    const baseValue = base?.kpis[name]?.value ?? null;
    const values = chosen.map((sc) => {
      const value = sc.kpis[name]?.value ?? null;
      const delta = value === null || baseValue === null ? null : value - baseValue;
      const relative = delta === null || baseValue === 0 || baseValue === null ? null : delta / Math.abs(baseValue);
      return { scenario_id: sc.id, value, delta, relative_delta: relative, comparison: comparisonOf(delta, sample.better_when) };
    });
    const ranked = values.filter((v) => v.value !== null);
    const higher = higherIsBetter(sample.better_when);
    const best = ranked.length === 0 ? null : ranked.reduce((a, b) => ((higher ? b.value! > a.value! : b.value! < a.value!) ? b : a)).scenario_id;
    return { name, unit: sample.unit, better_when: sample.better_when, threshold: sample.threshold, best, values };
  });
  const paramNames = [...new Set(chosen.flatMap((sc) => sc.algorithm.parameters.map((p) => p.name)))];
  const parameters = paramNames.map((name) => {
    const values = chosen.map((sc) => ({ scenario_id: sc.id, value: sc.algorithm.parameters.find((p) => p.name === name)?.value ?? null }));
    const differs = new Set(values.map((v) => JSON.stringify(v.value))).size > 1;
    return { name, values, differs };
  });
  return {
    baseline,
    scenarios: chosen.map((sc) => ({ id: sc.id, tag: sc.tag, status: sc.status, algorithm: sc.algorithm.name, dataset_key: sc.input_data_id })),
    kpis,
    parameters,
  };
}
