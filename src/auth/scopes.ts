import type { Scope } from '../model/token-scopes.js';

/**
 * Token scopes. `read` < `run` < `admin` are ordered, each including the ones before it; `metrics`
 * stands apart: it reaches `GET /metrics` only (a scraper's token), which `admin` also reaches.
 */
const ORDERED: readonly Scope[] = ['read', 'run', 'admin'];

/** Whether a token of scope `held` may do what needs scope `needed`. */
export function scopeAllows(held: Scope, needed: Scope): boolean {
  if (held === 'admin') return true;
  if (held === 'metrics' || needed === 'metrics') return held === needed;
  return ORDERED.indexOf(held) >= ORDERED.indexOf(needed);
}
