/**
 * The scopes a stored token may have (the `api_tokens.scope` column's values). What each allows is
 * the auth layer's business (`src/auth/scopes.ts`).
 */
export const SCOPES = ['read', 'run', 'admin', 'metrics'] as const;
export type Scope = (typeof SCOPES)[number];

export function isScope(value: unknown): value is Scope {
  return typeof value === 'string' && (SCOPES as readonly string[]).includes(value);
}
