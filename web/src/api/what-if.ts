import type { operations, paths } from 'scenarist/client';
import { isDelete, isInsert, isUpdate, type RecordedEdit } from '../whatif/edits.ts';
import type { Api } from './client.ts';
import { unwrap } from './http.ts';
import type { CompareResult } from './types.ts';

/**
 * The what-if routes (docs/api/what-ifs.md): branch a scenario with parameter changes and data edits,
 * read a scenario's lineage and a dataset's. Types come from the generated schema; calls go through the
 * API's typed client (`api.http`).
 */
type Json<R> = R extends { content: { 'application/json': infer Body } } ? Body : never;

export type BranchBody = paths['/sessions/{sid}/scenarios/{id}/branch']['post']['requestBody']['content']['application/json'];
export type Branch = Json<operations['postSessionsBySidScenariosByIdBranch']['responses'][201]>;
export type Lineage = Json<operations['getSessionsBySidScenariosByIdLineage']['responses'][200]>;
export type LineageNode = Lineage['scenario'];
export type LineageTreeNode = Lineage['descendants'][number];
/** One parameter set otherwise: `algorithm`, an algorithm parameter, or `data_params.<name>`. */
export type ParameterChange = NonNullable<NonNullable<LineageNode['changes']>['parameters']>[number];
/** How a dataset relates to its parent's: of one family (with the chains of edits), or unrelated. */
export type DataRelation = NonNullable<NonNullable<LineageNode['changes']>['data']>;
export type DatasetLineage = Json<operations['getSessionsBySidDataByKeyLineage']['responses'][200]>;
export type ScenarioInputs = CompareResult['inputs'][number];

/** The edits as the editor types them: a dataset's lineage answers exactly that form (checked by the build). */
export const recordedEdits = (lineage: DatasetLineage): RecordedEdit[] => lineage.edits;

/**
 * Applied edits as lineage and compare list them. The document types each as `{ table, rows }` and
 * any other field (the edit as given), so the form is checked here: one that is no update, insert or
 * delete (a newer server's kind) is left out of the sentences rather than misread.
 */
export function appliedEdits(list: readonly { table: string; rows: number }[]): RecordedEdit[] {
  return list.filter((e): e is RecordedEdit => {
    const edit = e as RecordedEdit;
    return isUpdate(edit) || isInsert(edit) || isDelete(edit);
  });
}

/** The edits a relation adds on the way to its `to` dataset, in order. */
export const editsTowards = (data: DataRelation | null | undefined): RecordedEdit[] =>
  data?.relation === 'family' ? appliedEdits(data.to_steps.flatMap((step) => step.edits)) : [];

export const branchScenario = (api: Api, sid: string, id: string, body: BranchBody): Promise<Branch> =>
  unwrap(api.config, api.http.POST('/sessions/{sid}/scenarios/{id}/branch', { params: { path: { sid, id } }, body }));

export const scenarioLineage = (api: Api, sid: string, id: string): Promise<Lineage> =>
  unwrap(api.config, api.http.GET('/sessions/{sid}/scenarios/{id}/lineage', { params: { path: { sid, id } } }));

export const datasetLineage = (api: Api, sid: string, key: string): Promise<DatasetLineage> =>
  unwrap(api.config, api.http.GET('/sessions/{sid}/data/{key}/lineage', { params: { path: { sid, key } } }));
