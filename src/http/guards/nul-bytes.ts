/**
 * The name of the first path or query parameter holding a NUL character, if any. No stored name or id
 * can contain one, and PostgreSQL cannot even compare text with it (it fails the query), so such a
 * request is refused before it reaches the store.
 */
export function parameterWithNul(values: unknown): string | undefined {
  if (typeof values !== 'object' || values === null) return undefined;
  for (const [name, value] of Object.entries(values)) {
    if (typeof value === 'string' ? value.includes('\u0000') : Array.isArray(value) && value.some((v) => typeof v === 'string' && v.includes('\u0000'))) {
      return name;
    }
  }
  return undefined;
}
