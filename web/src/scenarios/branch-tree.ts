import type { Scenario } from '../api/types.ts';

/** The scenario a branch was made from (`parent_id`), or null for a root (and from an older server, which sends none). */
export const parentOf = (s: Scenario): string | null => s.parent_id ?? null;

export interface Placed {
  scenario: Scenario;
  /** 0 for a root; 1 for its branches; and so on. */
  depth: number;
}

/**
 * The scenarios with each one's branches right under it, in the order given (a root, its first branch,
 * that branch's branches, its second branch, …). A scenario whose parent is not in the list (filtered out,
 * or deleted) is placed as a root, so nothing shown is lost.
 */
export function branchesUnderParents(list: readonly Scenario[]): Placed[] {
  const present = new Set(list.map((s) => s.id));
  const children = new Map<string, Scenario[]>();
  const roots: Scenario[] = [];
  for (const s of list) {
    const parent = parentOf(s);
    if (parent !== null && present.has(parent) && parent !== s.id) children.set(parent, [...(children.get(parent) ?? []), s]);
    else roots.push(s);
  }
  const placed: Placed[] = [];
  const seen = new Set<string>();
  const visit = (s: Scenario, depth: number) => {
    // A cycle cannot come from the server; the guard keeps a malformed answer from hanging the page.
    if (seen.has(s.id)) return;
    seen.add(s.id);
    placed.push({ scenario: s, depth });
    for (const child of children.get(s.id) ?? []) visit(child, depth + 1);
  };
  for (const root of roots) visit(root, 0);
  return placed;
}

/** The one picked scenario that every other picked scenario was branched from, if there is one. */
export function commonParent(ids: readonly string[], list: readonly Scenario[] | undefined): string | undefined {
  if (!list || ids.length < 2) return undefined;
  const parents = new Map(list.map((s) => [s.id, parentOf(s)]));
  return ids.find((candidate) => ids.every((id) => id === candidate || parents.get(id) === candidate));
}
