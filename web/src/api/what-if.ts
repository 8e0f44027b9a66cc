import type { RecordedEdit, Edit } from '../whatif/edits.ts';
import type { Api } from './client.ts';
import { unwrap } from './http.ts';
import type { Scenario, Status } from './types.ts';

/**
 * The what-if routes (docs/api/what-if.md): branch a scenario with parameter changes and data edits,
 * read a scenario's lineage. Every call goes through the API's typed client (`api.http`).
 */
export interface BranchBody {
  tag: string;
  algo_params?: Record<string, unknown>;
  data_params?: Record<string, unknown>;
  edits?: Edit[];
  run?: boolean;
}

/** One parameter a scenario set differently from its parent. */
export interface ParameterChange {
  name: string;
  from: unknown;
  to: unknown;
}

/** A scenario in a lineage: who it is and what it changed against its parent. */
export interface LineageNode {
  id: string;
  tag: string;
  status: Status;
  parameters: ParameterChange[];
  edits: RecordedEdit[];
  /** Its parent was deleted: the chain above it is gone (its `parent_id` is null since). */
  parent_deleted?: boolean;
  children?: LineageNode[];
}

export interface Lineage {
  /** From the root down to the scenario's parent. */
  ancestors: LineageNode[];
  scenario: LineageNode;
  descendants: LineageNode[];
}

export async function branchScenario(api: Api, sid: string, id: string, body: BranchBody): Promise<Scenario> {
  const answer = api.http.POST('/sessions/{sid}/scenarios/{id}/branch' as never, { params: { path: { sid, id } }, body } as never);
  return unwrap(api.config, answer);
}

export async function scenarioLineage(api: Api, sid: string, id: string): Promise<Lineage> {
  const answer = api.http.GET('/sessions/{sid}/scenarios/{id}/lineage' as never, { params: { path: { sid, id } } } as never);
  return unwrap(api.config, answer);
}
