/**
 * Token scopes. `read` < `run` < `admin` are ordered, each including the ones before it; `metrics`
 * stands apart: it reaches `GET /metrics` only (a scraper's token), which `admin` also reaches.
 */
export const SCOPES = ['read', 'run', 'admin', 'metrics'] as const;
export type Scope = (typeof SCOPES)[number];

const ORDERED: readonly Scope[] = ['read', 'run', 'admin'];

export function isScope(value: unknown): value is Scope {
  return typeof value === 'string' && (SCOPES as readonly string[]).includes(value);
}

/** Whether a token of scope `held` may do what needs scope `needed`. */
export function scopeAllows(held: Scope, needed: Scope): boolean {
  if (held === 'admin') return true;
  if (held === 'metrics' || needed === 'metrics') return held === needed;
  return ORDERED.indexOf(held) >= ORDERED.indexOf(needed);
}
