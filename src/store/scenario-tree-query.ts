import { sql, type Kysely } from 'kysely';
import type { Database, StoredStatus } from './database.js';

/** A scenario as its tree shows it: who it is, where it hangs, and the inputs it changed. */
export interface TreeNodeRecord {
  readonly id: string;
  readonly tag: string;
  readonly status: StoredStatus;
  readonly parentId: string | null;
  /** Set when its parent was deleted (migration 0015): the parent's id and tag. */
  readonly deletedParentId: string | null;
  readonly deletedParentTag: string | null;
  readonly datasetKey: string;
  readonly algoName: string;
  readonly algoParamsJson: string;
  readonly dataParamsJson: string;
}

/** How deep a walk goes: far beyond any tree a planner builds, and a stop should a cycle ever be written. */
const MAX_DEPTH = 10_000;

const nodeColumns = sql`s.id, s.tag, s.status, s.parent_id as "parentId", s.deleted_parent_id as "deletedParentId",
  s.deleted_parent_tag as "deletedParentTag", s.dataset_key as "datasetKey", s.algo_name as "algoName",
  s.algo_params as "algoParamsJson", s.data_params as "dataParamsJson"`;

/** The scenario and its ancestors, root first and the scenario last; empty when it does not exist. */
export async function ancestorsOf(db: Kysely<Database>, sessionId: string, id: string): Promise<TreeNodeRecord[]> {
  const { rows } = await sql<TreeNodeRecord>`
    with recursive up(id, parent_id, depth) as (
      select id, parent_id, 0 from scenarios where session_id = ${sessionId} and id = ${id}
      union all
      select s.id, s.parent_id, up.depth + 1 from scenarios s join up on s.id = up.parent_id
        where s.session_id = ${sessionId} and up.depth < ${MAX_DEPTH}
    )
    select ${nodeColumns} from up join scenarios s on s.id = up.id order by up.depth desc`.execute(db);
  return rows;
}

/**
 * The scenario's descendants (not itself), in creation order, at most `limit` of them (the caller asks
 * one more to learn there are more). Each names its parent, so the caller builds the tree.
 */
export async function descendantsOf(db: Kysely<Database>, sessionId: string, id: string, limit: number): Promise<TreeNodeRecord[]> {
  const { rows } = await sql<TreeNodeRecord>`
    with recursive down(id, depth) as (
      select id, 0 from scenarios where session_id = ${sessionId} and parent_id = ${id}
      union all
      select s.id, down.depth + 1 from scenarios s join down on s.parent_id = down.id
        where s.session_id = ${sessionId} and down.depth < ${MAX_DEPTH}
    )
    select ${nodeColumns} from down join scenarios s on s.id = down.id order by s.seq limit ${limit}`.execute(db);
  return rows;
}
