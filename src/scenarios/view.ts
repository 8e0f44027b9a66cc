import type { BetterWhen } from '../domain/define.js';
import type { DomainRegistry } from '../domain/registry.js';
import { describeParams, type ParameterDescriptor } from '../params/describe.js';
import type { ScenarioRecord, ScenarioStatusRecord } from '../store/scenarios-repository.js';
import { isRunErrorCode, type RunErrorCode } from '../model/run-state/run-error.js';
import { parseReport, type ReportView } from '../model/run-state/run-insight.js';
import type { ScenarioStatus } from '../model/run-state/state-machine.js';
import type { StaleMark } from '../model/stale-mark.js';
import type { CurrentVersions } from '../store/dataset-versions-repository.js';
import { createdOnVersion, scenarioStale } from './stale-marks.js';

/** A KPI entry of the scenario payload (docs/api/contract.md, "Conventions"). */
export interface KpiView {
  readonly name: string;
  /** Null until COMPLETE. */
  readonly value: number | null;
  readonly unit: string;
  readonly better_when: BetterWhen;
  readonly threshold: number | null;
}

/** The scenario payload: the spec's fields plus the extensions listed in docs/api/contract.md. */
export interface ScenarioView {
  readonly id: string;
  readonly tag: string;
  readonly input_data_id: string;
  readonly algorithm: { readonly name: string; readonly parameters: ParameterDescriptor[] };
  readonly kpis: Readonly<Record<string, KpiView>>;
  readonly status: ScenarioStatus;
  readonly result: unknown;
  readonly data_parameters: Readonly<Record<string, unknown>>;
  readonly progress: number;
  readonly created_at: string;
  readonly started_at: string | null;
  readonly finished_at: string | null;
  /** Set when FAILED; `code` (a `RunErrorCode`) says why, for machines. */
  readonly error: { readonly message: string; readonly code?: RunErrorCode } | null;
  /** The latest `ctx.report` of the run; absent until it reports. */
  readonly report?: ReportView;
  /** The seed of the latest run's `ctx.random`; absent until a run started. */
  readonly seed?: number;
  /** The scenario it was branched from (`POST .../branch`); null for a root. */
  readonly parent_id: string | null;
  /** The plan's scenario its latest warm-started run received; its churn against the published plan (docs/api/cycles.md). */
  readonly warm_start_from: string | null;
  readonly plan_churn: { readonly rows_changed: number; readonly share: number } | null;
  /** The scenario it was rebased from, and the published plan's scenario it re-plans (docs/api/cycles.md); null otherwise. */
  readonly rebased_from: string | null;
  readonly replans: string | null;
  /** Its dataset's version when it was created (or reset), and the one its result was computed on (docs/api/cycles.md). */
  readonly dataset_version: number | null;
  readonly result_dataset_version: number | null;
  /** Null when computed on the current data; else which dataset moved, from which version to which. */
  readonly stale: StaleMark | null;
}

export interface StatusView {
  readonly id: string;
  readonly tag: string;
  readonly status: ScenarioStatus;
  readonly progress: number;
  /** Absent until the run reports, so the spec's shape is exact for algorithms that never do. */
  readonly report?: ReportView;
  /** Why the run failed, when FAILED (absent otherwise, so the spec's shape is exact). */
  readonly error_code?: RunErrorCode;
}

/** What the executor running a scenario in this process knows fresher than the store. */
export interface LiveState {
  readonly progress: number;
  readonly report?: ReportView | undefined;
}

/**
 * The wire form of a stored scenario. `live` (from the executor running it here) replaces the batched
 * progress and report of the database while it is PROCESSING. `versions` (the session's current
 * dataset versions, read once for a whole answer) gives its stale mark; without it, `record.stale`.
 */
export function scenarioView(record: ScenarioRecord, domain: DomainRegistry, live?: LiveState, versions?: CurrentVersions): ScenarioView {
  const complete = record.status === 'COMPLETE';
  const processingHere = live !== undefined && record.status === 'PROCESSING';
  const report = (processingHere ? live.report : undefined) ?? parseReport(record.reportJson);
  const kpiValues = complete ? parseObject(record.kpiValuesJson) : {};
  const algorithm = domain.algorithm(record.algoName);
  const createdOn = versions === undefined ? (record.datasetVersion ?? null) : createdOnVersion(record, versions);
  return {
    id: record.id,
    tag: record.tag,
    input_data_id: record.datasetKey,
    algorithm: {
      name: record.algoName,
      // An algorithm removed from the domain since creation has no declarations to describe.
      parameters: algorithm ? describeParams(domain.parametersOf(algorithm), parseObject(record.algoParamsJson)) : [],
    },
    kpis: Object.fromEntries(
      // Only the KPIs that measure this algorithm (all of them for an algorithm no longer in the domain).
      (algorithm ? domain.kpisFor(algorithm.name) : domain.kpis).map((kpi): [string, KpiView] => {
        const value = kpiValues[kpi.name];
        return [
          kpi.name,
          {
            name: kpi.name,
            value: typeof value === 'number' ? value : null,
            unit: kpi.unit,
            better_when: kpi.betterWhen,
            threshold: kpi.threshold ?? null,
          },
        ];
      }),
    ),
    status: record.status,
    // COMPLETE, or FAILED with code KPI_ERROR: the result the KPIs failed on is kept (docs/api/runs.md).
    result: (complete || record.status === 'FAILED') && record.resultJson !== null ? (JSON.parse(record.resultJson) as unknown) : null,
    data_parameters: parseObject(record.dataParamsJson),
    progress: processingHere ? live.progress : record.progress,
    created_at: record.createdAt,
    started_at: record.startedAt,
    finished_at: record.finishedAt,
    error: record.status === 'FAILED' ? errorView(record) : null,
    ...(report ? { report } : {}),
    ...(record.seed === null ? {} : { seed: record.seed }),
    parent_id: record.parentId,
    warm_start_from: record.warmStartFrom ?? null,
    plan_churn: record.planChurn ?? null,
    rebased_from: record.rebasedFrom ?? null,
    replans: record.replans ?? null,
    dataset_version: createdOn,
    result_dataset_version: record.resultDatasetVersion ?? null,
    stale: versions === undefined ? (record.stale ?? null) : scenarioStale(record, createdOn, versions),
  };
}

export function statusView(record: ScenarioStatusRecord, live?: LiveState): StatusView {
  const processingHere = live !== undefined && record.status === 'PROCESSING';
  const report = (processingHere ? live.report : undefined) ?? parseReport(record.reportJson);
  return {
    id: record.id,
    tag: record.tag,
    status: record.status,
    progress: processingHere ? live.progress : record.progress,
    ...(report ? { report } : {}),
    ...(record.status === 'FAILED' && isRunErrorCode(record.errorCode) ? { error_code: record.errorCode } : {}),
  };
}

function errorView(record: ScenarioRecord): { message: string; code?: RunErrorCode } {
  const message = record.error ?? 'the run failed';
  return isRunErrorCode(record.errorCode) ? { message, code: record.errorCode } : { message };
}

function parseObject(json: string | null): Record<string, unknown> {
  if (json === null) return {};
  const value: unknown = JSON.parse(json);
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
}
