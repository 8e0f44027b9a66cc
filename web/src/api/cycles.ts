import type { operations, paths } from 'scenarist/client';
import type { Api } from './client.ts';
import { ApiError, unwrap } from './http.ts';
import type { CompareResult, DatasetForm, Scenario } from './types.ts';

/**
 * The planning-cycle routes (docs/api/cycles.md): a dataset's versions and an old version's content,
 * rebasing a scenario (or its tree) onto new data, re-planning the published plan. Types come from the
 * generated schema, so a change of the API breaks the build here.
 */
type Json<Op extends keyof operations, Code extends keyof operations[Op]['responses']> = operations[Op]['responses'][Code] extends {
  content: { 'application/json': infer Body };
}
  ? Body
  : never;

/** Which dataset moved under something, from the version it was computed (or derived) on to the current one. */
export type StaleMark = NonNullable<Scenario['stale']>;
/** How far a scenario's result is from the published plan's: rows added, removed or changed, and their share. */
export type PlanChurn = NonNullable<Scenario['plan_churn']>;
export type DatasetVersion = Json<'getSessionsBySidDataByKeyVersions', 200>['versions'][number];
export type RebaseBody = paths['/sessions/{sid}/scenarios/{id}/rebase']['post']['requestBody']['content']['application/json'];
export type ReplanBody = paths['/sessions/{sid}/plan/replan']['post']['requestBody']['content']['application/json'];
/** Compare's `results`: per scenario but the baseline, its keyed result tables against the baseline's. */
export type ResultDiff = CompareResult['results'][number];
export type ResultTableDiff = NonNullable<ResultDiff['tables']>[number];
/** One edit that no longer fits the new data (409 REBASE_CONFLICT lists them all). */
export type RebaseConflict = NonNullable<Json<'postSessionsBySidScenariosByIdRebase', 409>['conflicts']>[number];

export const datasetVersions = async ({ http, config }: Api, sid: string, key: string): Promise<DatasetVersion[]> =>
  (await unwrap(config, http.GET('/sessions/{sid}/data/{key}/versions', { params: { path: { sid, key } } }))).versions;

/** One version of a dataset in its JSON form (the route types that answer as any JSON: see `DatasetForm`). */
export const datasetAtVersion = async ({ http, config }: Api, sid: string, key: string, version: number): Promise<DatasetForm> =>
  (await unwrap(config, http.GET('/sessions/{sid}/data/{key}', { params: { path: { sid, key }, query: { version: String(version) } } }))) as DatasetForm;

/** The successors, in tree order (the rebased scenario first). */
export const rebaseScenario = async ({ http, config }: Api, sid: string, id: string, body: RebaseBody): Promise<Scenario[]> =>
  (await unwrap(config, http.POST('/sessions/{sid}/scenarios/{id}/rebase', { params: { path: { sid, id } }, body }))).scenarios;

/** The published plan's successor on the newest data, queued at once unless `run` is false. */
export const replanPlan = ({ http, config }: Api, sid: string, body: ReplanBody): Promise<Scenario> =>
  unwrap(config, http.POST('/sessions/{sid}/plan/replan', { params: { path: { sid } }, body }));

/** The conflicts a refused rebase or re-plan listed; empty for any other error. */
export function rebaseConflictsOf(error: unknown): RebaseConflict[] {
  if (!(error instanceof ApiError) || error.code !== 'REBASE_CONFLICT') return [];
  const body = error.body as { conflicts?: unknown } | undefined;
  return Array.isArray(body?.conflicts) ? (body.conflicts as RebaseConflict[]) : [];
}
