import type { GateRunRow } from '../store/gates-repository.js';
import type { GatePlan, JudgedKpi } from './plan.js';
import type { PairedTests } from './paired-tests.js';
import { pairedVerdict, type KpiVerdict, type PairedOutcome } from './statistics.js';

/** One KPI's line of the verdict table, with the paired differences it was computed from (for the chart). */
export interface KpiVerdictView extends PairedOutcome {
  readonly kpi: string;
  readonly better_when: JudgedKpi['better_when'];
  readonly min_effect: number;
  /** Candidate − baseline per usable pair, in pair order; `pairs[i]` is the pair's index. */
  readonly differences: number[];
  readonly pairs: number[];
}

export interface GateVerdict {
  readonly verdict: KpiVerdict;
  readonly kpis: KpiVerdictView[];
}

function kpiValues(json: string | null): Record<string, unknown> {
  if (json === null) return {};
  const parsed: unknown = JSON.parse(json);
  return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : {};
}

/**
 * The verdict from the stored KPI values of the gate's runs: a pair counts for a KPI when both its
 * sides are COMPLETE with a finite value of it (a failed, reset or deleted run leaves its pair out,
 * and `n` says how many counted). Recomputed from the store on each read, so it never drifts from it.
 */
export function gateVerdict(plan: Pick<GatePlan, 'kpis' | 'rule'>, alpha: number, runs: readonly GateRunRow[], tests: PairedTests): GateVerdict {
  const byPair = new Map<number, { baseline?: Record<string, unknown>; candidate?: Record<string, unknown> }>();
  for (const run of runs) {
    if (run.status !== 'COMPLETE') continue;
    const pair = byPair.get(run.pair) ?? {};
    pair[run.side] = kpiValues(run.kpiValuesJson);
    byPair.set(run.pair, pair);
  }
  const order = [...byPair.keys()].sort((a, b) => a - b);
  const kpis = plan.kpis.map((kpi): KpiVerdictView => {
    const differences: number[] = [];
    const pairs: number[] = [];
    for (const index of order) {
      const { baseline, candidate } = byPair.get(index)!;
      const b = baseline?.[kpi.name];
      const c = candidate?.[kpi.name];
      if (typeof b === 'number' && typeof c === 'number' && Number.isFinite(b) && Number.isFinite(c)) {
        differences.push(c - b);
        pairs.push(index);
      }
    }
    const outcome = pairedVerdict(differences, { betterWhen: kpi.better_when, alpha, minEffect: kpi.min_effect }, tests);
    return { kpi: kpi.name, better_when: kpi.better_when, min_effect: kpi.min_effect, ...outcome, differences, pairs };
  });
  return { verdict: overall(plan.rule, kpis), kpis };
}

/** `fail` when a must-not-fail KPI fails; `pass` when every must-pass KPI passes; else `inconclusive`. */
export function overall(rule: GatePlan['rule'], kpis: readonly { kpi: string; verdict: KpiVerdict }[]): KpiVerdict {
  const verdictOf = new Map(kpis.map((k) => [k.kpi, k.verdict]));
  if (rule.must_not_fail.some((name) => verdictOf.get(name) === 'fail')) return 'fail';
  if (rule.must_pass.length > 0 && rule.must_pass.every((name) => verdictOf.get(name) === 'pass')) return 'pass';
  return 'inconclusive';
}
