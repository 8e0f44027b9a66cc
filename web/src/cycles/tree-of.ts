import type { Scenario } from '../api/types.ts';

/** How many scenarios branch from `id`, directly or through other branches (what a tree rebase takes along). */
export function descendantCount(id: string, list: readonly Scenario[]): number {
  const children = new Map<string, string[]>();
  for (const s of list) {
    if (s.parent_id) children.set(s.parent_id, [...(children.get(s.parent_id) ?? []), s.id]);
  }
  const seen = new Set<string>();
  const stack = [...(children.get(id) ?? [])];
  while (stack.length > 0) {
    const next = stack.pop()!;
    // A cycle cannot come from the server; the guard keeps a malformed answer from hanging the page.
    if (seen.has(next) || next === id) continue;
    seen.add(next);
    stack.push(...(children.get(next) ?? []));
  }
  return seen.size;
}

/** The scenarios made from `id` by a rebase, newest first. */
export const successorsOf = (id: string, list: readonly Scenario[]): Scenario[] =>
  list.filter((s) => s.rebased_from === id).sort((a, b) => b.created_at.localeCompare(a.created_at));

/** The published plan's re-plans (scenarios that re-plan `planScenarioId`), newest first. */
export const replansOf = (planScenarioId: string, list: readonly Scenario[]): Scenario[] =>
  list.filter((s) => s.replans === planScenarioId).sort((a, b) => b.created_at.localeCompare(a.created_at));
