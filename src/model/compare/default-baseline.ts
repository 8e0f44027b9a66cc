/** What choosing a baseline needs to know of a compared scenario. */
export interface BaselineCandidate {
  readonly id: string;
  readonly parentId: string | null;
}

/**
 * The compared scenario the others were all branched from, when there is one. Undefined when they
 * are not one parent and its branches.
 */
export function parentOfTheOthers(compared: readonly BaselineCandidate[]): string | undefined {
  if (compared.length < 2) return undefined;
  return compared.find((candidate) => compared.every((c) => c.id === candidate.id || c.parentId === candidate.id))?.id;
}

/**
 * The baseline of a comparison, one rule for every place that compares (compare, its views, a report):
 * the one asked for; else the session's published plan when it is compared (the one to beat); else the
 * parent when the others are all its branches; else the first, in the order given. `asked` must be one
 * of `compared` (the callers refuse it otherwise, each with its own code).
 */
export function chooseBaseline(compared: readonly BaselineCandidate[], choice: { readonly asked?: string | undefined; readonly planScenarioId?: string | undefined }): string {
  if (choice.asked !== undefined) return choice.asked;
  if (choice.planScenarioId !== undefined && compared.some((c) => c.id === choice.planScenarioId)) return choice.planScenarioId;
  const first = compared[0];
  if (first === undefined) throw new Error('chooseBaseline: nothing compared');
  return parentOfTheOthers(compared) ?? first.id;
}
