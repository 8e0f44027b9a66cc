/** Token scopes, each one including the ones before it: read < run < admin. */
export const SCOPES = ['read', 'run', 'admin'] as const;
export type Scope = (typeof SCOPES)[number];

export function isScope(value: unknown): value is Scope {
  return typeof value === 'string' && (SCOPES as readonly string[]).includes(value);
}

/** Whether a token of scope `held` may do what needs scope `needed`. */
export function scopeAllows(held: Scope, needed: Scope): boolean {
  return SCOPES.indexOf(held) >= SCOPES.indexOf(needed);
}
