import type { Violation } from '../api/explanations.ts';

/** The violations of a scenario against the baseline's: those it adds, and those it no longer has. */
export interface ViolationDiff {
  readonly appeared: readonly Violation[];
  readonly disappeared: readonly Violation[];
  /** In both (the same rule on the same rows), perhaps by another amount. */
  readonly kept: number;
}

/**
 * One broken rule is the same in two plans when it is the same constraint on the same rows (its
 * amount and sentence may differ: a location over by 2, then by 1, is still over); a rule naming no
 * rows is told apart by its sentence.
 */
export function violationIdentity(v: Violation): string {
  const rows = v.rows.map((r) => `${r.table}\u0000${String(r.key)}`).sort();
  return JSON.stringify([v.constraint, rows.length > 0 ? rows : v.message]);
}

export function diffViolations(baseline: readonly Violation[], scenario: readonly Violation[]): ViolationDiff {
  const before = new Set(baseline.map(violationIdentity));
  const after = new Set(scenario.map(violationIdentity));
  return {
    appeared: scenario.filter((v) => !before.has(violationIdentity(v))),
    disappeared: baseline.filter((v) => !after.has(violationIdentity(v))),
    kept: scenario.filter((v) => before.has(violationIdentity(v))).length,
  };
}
