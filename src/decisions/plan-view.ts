import type { BetterWhen } from '../domain/define.js';
import type { Actor } from '../model/actor.js';
import type { PlanRow } from '../store/plans-repository.js';
import type { CurrentVersions } from '../store/dataset-versions-repository.js';
import { staleOf, type StaleMark } from '../model/stale-mark.js';

/** A KPI of the plan as it was when published: the scenario's KPI entry. */
export interface PlanKpi {
  readonly name: string;
  readonly value: number | null;
  readonly unit: string;
  readonly better_when: BetterWhen;
  readonly threshold: number | null;
}

/** How a plan stopped being the current one; null while it is. */
export interface PlanEnd {
  readonly how: 'superseded' | 'withdrawn';
  readonly at: string;
  /** The withdrawal's note; null for a supersession (the new plan's note says why). */
  readonly note: string | null;
  readonly by: Actor;
}

/** A published plan on the wire (docs/api/plans-and-reports.md). */
export interface PlanView {
  readonly id: string;
  readonly scenario_id: string;
  readonly tag: string;
  readonly dataset_key: string;
  readonly algorithm: string;
  readonly kpis: Readonly<Record<string, PlanKpi>>;
  readonly note: string;
  readonly published_by: Actor;
  readonly published_at: string;
  readonly ended: PlanEnd | null;
  /** The version of its dataset its result was computed on (docs/api/cycles.md); null for a plan ended before versions. */
  readonly dataset_version: number | null;
  /** Null while its dataset (and each ancestor) is at that version; else which moved, from which version to which. */
  readonly stale: StaleMark | null;
}

/** `GET /sessions/{sid}/plan`: the current plan (null when none) and the earlier ones, the latest first. */
export interface SessionPlanView {
  readonly current: PlanView | null;
  readonly history: PlanView[];
}

/** The plan on the wire; `versions` (the session's current dataset versions) gives its stale mark. */
export function planView(row: PlanRow, versions?: CurrentVersions): PlanView {
  const ended: PlanEnd | null =
    row.ended_at === null || row.ended_how === null
      ? null
      : { how: row.ended_how, at: row.ended_at, note: row.ended_note, by: { id: row.ended_by_id ?? '', name: row.ended_by_name } };
  return {
    id: row.id,
    scenario_id: row.scenario_id,
    tag: row.tag,
    dataset_key: row.dataset_key,
    algorithm: row.algo_name,
    kpis: JSON.parse(row.kpis) as Record<string, PlanKpi>,
    note: row.note,
    published_by: { id: row.published_by_id, name: row.published_by_name },
    published_at: row.published_at,
    ended,
    dataset_version: row.dataset_version ?? null,
    stale: versions === undefined || row.dataset_version === null ? null : staleOf(row.dataset_key, row.dataset_version, versions),
  };
}
