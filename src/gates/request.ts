/** A gate as a client asks for it (docs/api/gates.md), in the service's own names. */

/** One side: an algorithm and its parameters. */
export interface GateSideRequest {
  readonly algoName: string;
  readonly algoParams?: unknown;
  readonly dataParams?: unknown;
}

/** Which datasets both sides run on: listed, every what-if derived from one, or those of the last n published plans. */
export type GateInputs = { readonly datasets: readonly string[] } | { readonly derived_from: string } | { readonly plan_versions: number };

/** The overall verdict: `pass` when every `must_pass` KPI passes and no `must_not_fail` KPI fails; `fail` when one of those fails. */
export interface GateRule {
  readonly must_pass?: readonly string[] | undefined;
  readonly must_not_fail?: readonly string[] | undefined;
}

export interface GateRequest {
  readonly name: string;
  readonly baseline: GateSideRequest;
  readonly candidate: GateSideRequest;
  readonly inputs: GateInputs;
  /** Pairs per input, each pair with its own seed. */
  readonly repeats: number;
  /** The KPIs judged; all the domain's that apply to both sides when absent. */
  readonly kpis?: readonly string[] | undefined;
  readonly alpha: number;
  /** How much better the candidate must be, in the KPI's unit: one amount for every KPI, or by KPI name (0 for the others). */
  readonly minEffect: number | Readonly<Record<string, number>>;
  readonly rule?: GateRule | undefined;
}
