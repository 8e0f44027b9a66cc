import type { Edit, RecordedEdit } from '../whatif/edits.ts';
import type { Api } from './client.ts';
import { unwrap } from './http.ts';
import type { Scenario, Status } from './types.ts';

/**
 * The what-if routes (docs/api/what-ifs.md): branch a scenario with parameter changes and data edits,
 * read a scenario's lineage and a dataset's. Every call goes through the API's typed client (`api.http`).
 */
export interface BranchBody {
  tag: string;
  algo_params?: Record<string, unknown>;
  data_params?: Record<string, unknown>;
  edits?: Edit[];
  run?: boolean;
}

/** One parameter set otherwise: `algorithm`, an algorithm parameter, or `data_params.<name>`. */
export interface ParameterChange {
  name: string;
  from: unknown;
  to: unknown;
}

/** One derive: `dataset` made from `parent` with `edits`. */
export interface DerivationStep {
  dataset: string;
  parent: string;
  edits: RecordedEdit[];
}

/**
 * How one dataset relates to another: of one family (both derive from `common`; `to_steps` is the chain
 * of edits down to `to`, `from_steps` the one down to `from`), or unrelated.
 */
export type DataRelation =
  | { relation: 'family'; from: string; to: string; common: string; from_steps: DerivationStep[]; to_steps: DerivationStep[] }
  | { relation: 'unrelated'; from: string; to: string };

/** A scenario in a lineage: who it is and what it changed against its parent. */
export interface LineageNode {
  id: string;
  tag: string;
  status: Status;
  parent_id: string | null;
  /** The parent it had, when that was deleted (it is a root since). */
  parent_deleted: { id: string; tag: string } | null;
  dataset_key: string;
  /** Null for a root made as one; `parameters` null when the parent was deleted; `data` null on the parent's dataset. */
  changes: { parameters: ParameterChange[] | null; data: DataRelation | null } | null;
}

export interface LineageTreeNode extends LineageNode {
  children: LineageTreeNode[];
}

export interface Lineage {
  /** Root first, the scenario's parent last. */
  ancestors: LineageNode[];
  scenario: LineageNode;
  descendants: LineageTreeNode[];
  descendants_truncated: boolean;
}

/** A dataset's parent and the edits that made it (`parent` null and no edits for one uploaded). */
export interface DatasetLineage {
  key: string;
  parent: string | null;
  edits: RecordedEdit[];
}

/** The edits a relation adds on the way to its `to` dataset, in order. */
export const editsTowards = (data: DataRelation | null | undefined): RecordedEdit[] =>
  data?.relation === 'family' ? data.to_steps.flatMap((step) => step.edits) : [];

export async function branchScenario(api: Api, sid: string, id: string, body: BranchBody): Promise<Scenario> {
  const answer = api.http.POST('/sessions/{sid}/scenarios/{id}/branch' as never, { params: { path: { sid, id } }, body } as never);
  return (await unwrap(api.config, answer)) as Scenario;
}

export async function scenarioLineage(api: Api, sid: string, id: string): Promise<Lineage> {
  const answer = api.http.GET('/sessions/{sid}/scenarios/{id}/lineage' as never, { params: { path: { sid, id } } } as never);
  return (await unwrap(api.config, answer)) as Lineage;
}

export async function datasetLineage(api: Api, sid: string, key: string): Promise<DatasetLineage> {
  const answer = api.http.GET('/sessions/{sid}/data/{key}/lineage' as never, { params: { path: { sid, key } } } as never);
  return (await unwrap(api.config, answer)) as DatasetLineage;
}
