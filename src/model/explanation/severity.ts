export const SEVERITIES = ['hard', 'soft'] as const;
/** `hard`: the plan cannot be carried out as it is (the run is then infeasible); `soft`: it can, at a cost. */
export type Severity = (typeof SEVERITIES)[number];
