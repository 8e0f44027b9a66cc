import type { TreeNodeRecord } from '../../store/scenario-tree-query.js';

/**
 * A scenario and its descendants in tree order: the scenario, then each branch followed by its own
 * branches (depth first), branches of one parent in creation order. `descendants` come in creation
 * order, so a parent is met before its children.
 */
export function treeOrder(top: TreeNodeRecord, descendants: readonly TreeNodeRecord[]): TreeNodeRecord[] {
  const children = new Map<string, TreeNodeRecord[]>();
  for (const node of descendants) {
    if (node.parentId === null) continue;
    const list = children.get(node.parentId);
    if (list) list.push(node);
    else children.set(node.parentId, [node]);
  }
  const ordered: TreeNodeRecord[] = [];
  const visit = (node: TreeNodeRecord) => {
    ordered.push(node);
    for (const child of children.get(node.id) ?? []) visit(child);
  };
  visit(top);
  return ordered;
}
