import type { DomainRegistry } from '../../domain/registry.js';
import type { StoredStatus } from '../../store/database.js';
import type { TreeNodeRecord } from '../../store/scenario-tree-query.js';
import type { DataRelation, DatasetFamilies } from './dataset-families.js';
import { parameterChanges, type ParameterChange } from './parameter-changes.js';

/** What a scenario changed against its parent. */
export interface NodeChanges {
  /** Parameters (and the algorithm) that differ; null when the parent was deleted, its values gone with it. */
  readonly parameters: ParameterChange[] | null;
  /** How its dataset stands to its parent's (the chain of edits in one family); null when it is the same dataset. */
  readonly data: DataRelation | null;
}

/** A scenario in its lineage. */
export interface LineageNode {
  readonly id: string;
  readonly tag: string;
  readonly status: StoredStatus;
  readonly parent_id: string | null;
  /** The parent it had, when that was deleted (the scenario became a root); null otherwise. */
  readonly parent_deleted: { readonly id: string; readonly tag: string } | null;
  readonly dataset_key: string;
  /** Null for a root created as one. */
  readonly changes: NodeChanges | null;
}

export interface LineageTreeNode extends LineageNode {
  readonly children: LineageTreeNode[];
}

/** `GET .../lineage`: where a scenario comes from and what was branched from it. */
export interface LineageView {
  /** Root first, the scenario's parent last; empty for a root. */
  readonly ancestors: LineageNode[];
  readonly scenario: LineageNode;
  /** Its branches, each with theirs, in creation order. */
  readonly descendants: LineageTreeNode[];
  /** Whether descendants were left out past the route's limit (the latest created are left out first). */
  readonly descendants_truncated: boolean;
}

export interface LineageDeps {
  readonly domain: DomainRegistry;
  readonly families: DatasetFamilies;
}

async function changesOf(node: TreeNodeRecord, parent: TreeNodeRecord | undefined, deps: LineageDeps): Promise<NodeChanges | null> {
  if (parent) {
    return {
      parameters: parameterChanges(parent, node, deps.domain),
      data: await deps.families.relation(parent.datasetKey, node.datasetKey),
    };
  }
  if (node.deletedParentId === null) return null;
  // The parent is gone, and with it its values and which dataset it used; what its own dataset was
  // derived with still says what this branch changed in the data.
  const origin = await deps.families.origin(node.datasetKey);
  const data: DataRelation | null =
    origin?.parent == null
      ? null
      : { relation: 'family', from: origin.parent, to: node.datasetKey, common: origin.parent, from_steps: [], to_steps: [{ dataset: node.datasetKey, parent: origin.parent, edits: origin.edits }] };
  return { parameters: null, data };
}

async function nodeOf(node: TreeNodeRecord, byId: ReadonlyMap<string, TreeNodeRecord>, deps: LineageDeps): Promise<LineageNode> {
  const parent = node.parentId === null ? undefined : byId.get(node.parentId);
  return {
    id: node.id,
    tag: node.tag,
    status: node.status,
    parent_id: node.parentId,
    parent_deleted: node.deletedParentId === null ? null : { id: node.deletedParentId, tag: node.deletedParentTag ?? '' },
    dataset_key: node.datasetKey,
    changes: await changesOf(node, parent, deps),
  };
}

/**
 * The lineage of a scenario from its ancestors (root first, the scenario last) and its descendants
 * (creation order, so every parent comes before its branches).
 */
export async function buildLineage(
  chain: readonly TreeNodeRecord[],
  descendants: readonly TreeNodeRecord[],
  truncated: boolean,
  deps: LineageDeps,
): Promise<LineageView> {
  const self = chain.at(-1)!;
  const byId = new Map([...chain, ...descendants].map((n) => [n.id, n]));
  const ancestors = await Promise.all(chain.slice(0, -1).map((n) => nodeOf(n, byId, deps)));
  const children = new Map<string, LineageTreeNode[]>();
  const tree = async (n: TreeNodeRecord): Promise<LineageTreeNode> => {
    const own: LineageTreeNode[] = [];
    children.set(n.id, own);
    return { ...(await nodeOf(n, byId, deps)), children: own };
  };
  const top: LineageTreeNode[] = [];
  children.set(self.id, top);
  for (const n of descendants) {
    // Creation order puts a parent first; a child whose parent was cut by the limit is left out.
    const siblings = n.parentId === null ? undefined : children.get(n.parentId);
    if (siblings) siblings.push(await tree(n));
  }
  return { ancestors, scenario: await nodeOf(self, byId, deps), descendants: top, descendants_truncated: truncated };
}
