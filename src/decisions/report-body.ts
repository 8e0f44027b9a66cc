import type { InputDifference } from '../scenarios/tree/compare-inputs.js';
import type { Actor } from '../model/actor.js';
import type { ReportKind } from '../store/database.js';
import type { CompareView, ParameterComparison } from '../scenarios/compare.js';
import type { WholeView } from '../views/rendered.js';
import type { FrozenExplanation } from '../scenarios/explanations/explanation-service.js';
import type { Waterfall } from '../scenarios/explanations/waterfall.js';

/** One input of the compared scenarios side by side (the dataset each read), in the shape of a parameter row. */
export type InputComparison = ParameterComparison;

/** A scenario's result views as a report froze them (none unless it was COMPLETE). */
export interface ScenarioViews {
  readonly scenario_id: string;
  readonly tag: string;
  readonly views: WholeView[];
}

/**
 * A report: a comparison frozen with everything needed to read it later without its scenarios. Views
 * are as the view routes answer them, except that a table holds every row in one page, and a view
 * that failed holds its `error` instead of a `spec`.
 */
export interface ReportBody {
  readonly id: string;
  readonly title: string;
  readonly note: string | null;
  readonly created_at: string;
  readonly created_by: Actor;
  readonly baseline: string;
  readonly scenarios: CompareView['scenarios'];
  readonly kpis: CompareView['kpis'];
  /** Compare's parameters, each with its declared label (`FrozenParameter`; a report saved before labels were frozen has none). */
  readonly parameters: (ParameterComparison & { readonly label?: string })[];
  readonly inputs: InputComparison[];
  /** Compare's `inputs` as they were: for each scenario but the baseline, the parameters and data that differ. */
  readonly input_changes: InputDifference[];
  /** Compare's waterfalls and each scenario's explanation as they were; absent from reports saved before explanations. */
  readonly explanations?: { readonly waterfalls: Waterfall[]; readonly scenarios: FrozenExplanation[] };
  readonly views: {
    readonly comparison: WholeView[];
    readonly scenarios: ScenarioViews[];
  };
}

/** A report in a list: what it is about, without its body. */
export interface ReportSummary {
  readonly id: string;
  /** A frozen comparison, or a gate's frozen verdict (`GateReportBody`, docs/api/gates.md). */
  readonly kind: ReportKind;
  readonly title: string;
  readonly note: string | null;
  readonly scenario_ids: string[];
  readonly created_at: string;
  readonly created_by: Actor;
}

/** The inputs that differ between the compared scenarios: the dataset each one read. */
export function compareInputs(scenarios: CompareView['scenarios']): InputComparison[] {
  const values = scenarios.map((s) => ({ scenario_id: s.id, value: s.dataset_key }));
  return [{ name: 'dataset', values, differs: new Set(values.map((v) => v.value)).size > 1 }];
}
