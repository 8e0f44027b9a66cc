import type { Actor } from '../model/actor.js';
import type { KpiVerdict } from './statistics.js';
import type { GateDetailView } from './service.js';
import type { KpiVerdictView } from './verdict.js';

/** A KPI line of a saved gate: the verdict table's line with its unit, and the paired differences it came from. */
export interface FrozenKpiVerdict extends KpiVerdictView {
  /** The KPI's unit when the report was saved (empty when the domain declares none). */
  readonly unit: string;
}

/** What a report freezes of a gate: these fields of its view as they were, typed as the view types them. */
export type FrozenGate = Pick<
  GateDetailView,
  'id' | 'name' | 'created_at' | 'baseline' | 'candidate' | 'inputs' | 'dataset_keys' | 'repeats' | 'alpha' | 'min_effect' | 'rule' | 'size' | 'counts'
>;

/**
 * A gate saved as a report (docs/api/gates.md, "Saving a gate as a report"): its verdict table, each
 * KPI's interval and paired differences, its inputs as requested and as resolved, both sides'
 * configuration, and who saved it when. Frozen whole: deleting the gate or rerunning one of its runs
 * changes the gate's verdict, never the report's.
 */
export interface GateReportBody {
  readonly kind: 'gate';
  readonly id: string;
  readonly title: string;
  readonly note: string | null;
  readonly created_at: string;
  readonly created_by: Actor;
  /** The gate as its view showed it when saved: what produced the verdict, without its progress or its live verdict. */
  readonly gate: FrozenGate;
  readonly verdict: KpiVerdict;
  readonly kpis: FrozenKpiVerdict[];
}

export interface GateReportInput {
  readonly title: string;
  readonly note?: string | undefined;
}

/** The report of a complete gate (its `verdict` and `kpis` are set), as it will be stored. */
export function gateReportBody(
  gate: GateDetailView & { readonly verdict: KpiVerdict; readonly kpis: KpiVerdictView[] },
  input: GateReportInput,
  frozen: { readonly id: string; readonly createdAt: string; readonly by: Actor; readonly unitOf: (kpi: string) => string },
): GateReportBody {
  return {
    kind: 'gate',
    id: frozen.id,
    title: input.title,
    note: input.note ?? null,
    created_at: frozen.createdAt,
    created_by: { id: frozen.by.id, name: frozen.by.name },
    gate: {
      id: gate.id,
      name: gate.name,
      created_at: gate.created_at,
      baseline: gate.baseline,
      candidate: gate.candidate,
      inputs: gate.inputs,
      dataset_keys: gate.dataset_keys,
      repeats: gate.repeats,
      alpha: gate.alpha,
      min_effect: gate.min_effect,
      rule: gate.rule,
      size: gate.size,
      counts: gate.counts,
    },
    verdict: gate.verdict,
    kpis: gate.kpis.map((line) => ({ ...line, unit: frozen.unitOf(line.kpi) })),
  };
}
