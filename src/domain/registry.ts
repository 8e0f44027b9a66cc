import { MAX_DURATION_MS } from '../config/parse-value.js';
import { checkDecls } from '../params/check-decls.js';
import type { ParamDecls } from '../params/kinds.js';
import type { AnyAlgorithm, AnyDataSource, AnyKpi, Domain } from './define.js';
import { checkExternal } from './check-external.js';
import { checkResultKeys } from './check-result-keys.js';
import { isExternal } from './external-algorithm.js';
import { DomainViews } from './view-registry.js';

/**
 * A loaded, validated domain: algorithms and KPIs by name. Validation happens once, at load, so a
 * mistake in a domain module stops start-up with a message instead of failing a request later.
 */
export class DomainRegistry {
  readonly name: string;
  private readonly algorithmsByName = new Map<string, AnyAlgorithm>();
  private readonly kpisByName = new Map<string, AnyKpi>();
  /** The KPIs each algorithm's runs are measured by, in the domain's KPI order. */
  private readonly kpisByAlgorithm = new Map<string, AnyKpi[]>();
  /** The domain's dataset, result and comparison views, checked and indexed. */
  readonly views: DomainViews;

  constructor(readonly domain: Domain) {
    this.name = domain.name;
    for (const algorithm of domain.algorithms) {
      if (typeof algorithm.name !== 'string' || algorithm.name === '') throw new Error('domain: an algorithm has no name');
      if (this.algorithmsByName.has(algorithm.name)) throw new Error(`domain: two algorithms are named "${algorithm.name}"`);
      if (isExternal(algorithm)) checkExternal(algorithm);
      else if (typeof algorithm.run !== 'function') throw new Error(`domain: algorithm "${algorithm.name}" has no run function`);
      checkDecls(this.parametersOf(algorithm), `algorithm "${algorithm.name}"`);
      const limit = algorithm.timeLimitMs;
      if (limit !== undefined && !(Number.isInteger(limit) && limit > 0 && limit <= MAX_DURATION_MS)) {
        throw new Error(`domain: algorithm "${algorithm.name}" has timeLimitMs ${String(limit)}; give a whole number of ms from 1 to ${MAX_DURATION_MS}`);
      }
      checkSeedParameter(algorithm, this.parametersOf(algorithm));
      checkResultKeys(algorithm);
      if (algorithm.tags !== undefined && (!Array.isArray(algorithm.tags) || !algorithm.tags.every((t) => typeof t === 'string' && t !== ''))) {
        throw new Error(`domain: algorithm "${algorithm.name}" has tags that are not an array of non-empty strings`);
      }
      this.algorithmsByName.set(algorithm.name, algorithm);
    }
    for (const kpi of domain.kpis) {
      if (this.kpisByName.has(kpi.name)) throw new Error(`domain: two KPIs are named "${kpi.name}"`);
      if (typeof kpi.compute !== 'function') throw new Error(`domain: KPI "${kpi.name}" has no compute function`);
      this.kpisByName.set(kpi.name, kpi);
    }
    for (const name of this.algorithmsByName.keys()) this.kpisByAlgorithm.set(name, []);
    for (const kpi of domain.kpis) {
      for (const name of this.algorithmsIn(kpi.appliesTo, `KPI "${kpi.name}"`)) this.kpisByAlgorithm.get(name)!.push(kpi);
    }
    this.views = new DomainViews(domain.views ?? [], [...this.algorithmsByName.values()], (scope, what) => this.algorithmsIn(scope, what));
    checkDecls(this.dataParameters, 'data source');
  }

  get algorithmNames(): string[] {
    return [...this.algorithmsByName.keys()];
  }

  get kpis(): readonly AnyKpi[] {
    return this.domain.kpis;
  }

  /** The KPIs that measure runs of `algoName` (none for an algorithm the domain does not have). */
  kpisFor(algoName: string): readonly AnyKpi[] {
    return this.kpisByAlgorithm.get(algoName) ?? [];
  }

  /** Whether KPI `kpiName` measures runs of `algoName`. */
  applies(kpiName: string, algoName: string): boolean {
    return this.kpisFor(algoName).some((kpi) => kpi.name === kpiName);
  }

  get kpiNames(): string[] {
    return [...this.kpisByName.keys()];
  }

  algorithm(name: string): AnyAlgorithm | undefined {
    return this.algorithmsByName.get(name);
  }

  /** The algorithm's parameter declarations, as checked at load (`{}` when a JavaScript module gives none). */
  parametersOf(algorithm: AnyAlgorithm): ParamDecls {
    return (algorithm.parameters as ParamDecls | undefined) ?? {};
  }

  /** The time limit of a run of `algoName`: the algorithm's own `timeLimitMs`, else `fallbackMs` (the setting). */
  timeLimitOf(algoName: string, fallbackMs: number): number {
    return this.algorithmsByName.get(algoName)?.timeLimitMs ?? fallbackMs;
  }

  /** Every algorithm's own time limit, with `fallbackMs` (the setting) for the rest, as data for the executors. */
  timeLimits(fallbackMs: number): { fallbackMs: number; byAlgorithm: Record<string, number> } {
    const byAlgorithm: Record<string, number> = {};
    for (const [name, algorithm] of this.algorithmsByName) if (algorithm.timeLimitMs !== undefined) byAlgorithm[name] = algorithm.timeLimitMs;
    return { fallbackMs, byAlgorithm };
  }

  /** The names of the algorithms an `appliesTo` (of `what`, a KPI or a view) names; every algorithm without it. */
  private algorithmsIn(appliesTo: unknown, what: string): string[] {
    const scope = appliesTo;
    const all = [...this.algorithmsByName.values()];
    if (scope === undefined) return all.map((a) => a.name);
    if (Array.isArray(scope)) {
      return (scope as unknown[]).map((algorithm) => {
        const name = (algorithm as { name?: unknown } | null | undefined)?.name;
        if (typeof name !== 'string' || !this.algorithmsByName.has(name)) {
          throw new Error(`domain: ${what} applies to algorithm "${String(name)}", which is not in the domain's algorithms`);
        }
        return name;
      });
    }
    const resultType = (scope as { name?: unknown }).name;
    if (typeof resultType !== 'string') throw new Error(`domain: ${what} has an appliesTo that is neither a list of algorithms nor a result type`);
    const names = all.filter((a) => a.result?.name === resultType).map((a) => a.name);
    if (names.length === 0) throw new Error(`domain: ${what} applies to result type "${resultType}", which no algorithm of the domain returns`);
    return names;
  }

  get dataSource(): AnyDataSource | undefined {
    return this.domain.dataSource;
  }

  get dataParameters(): ParamDecls {
    return (this.domain.dataSource?.parameters as ParamDecls | undefined) ?? {};
  }
}

/**
 * A declared seed parameter must be able to stay unset (no default, not required) and hold a seed (an
 * integer): otherwise every run would have the same seed, which is what declaring it is to prevent.
 */
function checkSeedParameter(algorithm: AnyAlgorithm, decls: ParamDecls): void {
  const name: unknown = algorithm.seedParameter;
  if (name === undefined) return;
  const owner = `domain: algorithm "${algorithm.name}" has seedParameter ${JSON.stringify(name)}`;
  if (typeof name !== 'string' || !Object.hasOwn(decls, name)) throw new Error(`${owner}, which is not one of its parameters (${Object.keys(decls).join(', ') || 'none'})`);
  const decl = decls[name]!;
  if (decl.kind !== 'integer') throw new Error(`${owner}, which is of kind ${decl.kind}; a seed parameter is an integer`);
  if (decl.default !== undefined || decl.required === true) {
    throw new Error(`${owner}, which is ${decl.default !== undefined ? 'given a default' : 'required'}; a seed parameter must be able to stay unset, so that each run takes its own seed (ctx.random.seed)`);
  }
}
