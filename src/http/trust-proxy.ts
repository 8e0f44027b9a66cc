import type { Settings } from '../config/settings.js';

/**
 * Fastify's `trustProxy` from the `forwarded_allow_ips` setting: unset ignores X-Forwarded-*,
 * `*` trusts every peer, a list trusts only those peer addresses.
 */
export function trustProxyOption(allowed: Settings['forwardedAllowIps']): boolean | string[] {
  if (allowed === undefined) return false;
  if (allowed === '*') return true;
  return [...allowed];
}
