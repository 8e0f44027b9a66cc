/**
 * An external program gives its explanation as the member `$explanation` of its output (docs/external-
 * algorithms.md): one JSON document stays the whole contract, and a result type, whose members are the
 * domain's, never has one of that name. The member is taken out before the result is checked and stored.
 */
export const EXPLANATION_MEMBER = '$explanation';

/** Whether the output's text may hold an explanation (cheap: the text of a result without one is stored as written). */
export function mayHoldExplanation(text: string): boolean {
  return text.includes(`"${EXPLANATION_MEMBER}"`);
}

/** The result without its explanation, and the explanation (undefined when it has none). */
export function splitExplanation(output: unknown): { readonly result: unknown; readonly explanation: unknown } {
  if (typeof output !== 'object' || output === null || Array.isArray(output) || !Object.hasOwn(output, EXPLANATION_MEMBER)) return { result: output, explanation: undefined };
  const { [EXPLANATION_MEMBER]: explanation, ...result } = output as Record<string, unknown>;
  return { result, explanation };
}
