/**
 * Whether a state-changing request's `Origin` may act on this service: a configured CORS origin (or
 * `*`), or the service's own origin (the Origin's host is the request's host, as the dashboard at /ui
 * sends). `null` (sandboxed or file pages) and malformed origins are never allowed.
 */
export function originAllowed(origin: string, corsOrigins: ReadonlySet<string>, requestHost: string | undefined): boolean {
  if (corsOrigins.has('*')) return true;
  const lowered = origin.toLowerCase();
  if (corsOrigins.has(lowered)) return true;
  if (requestHost === undefined || requestHost === '') return false;
  let url: URL;
  try {
    url = new URL(lowered);
  } catch {
    return false;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  try {
    // The Host read with the Origin's scheme, so that default ports (80/443) compare equal.
    return new URL(`${url.protocol}//${requestHost.toLowerCase()}`).host === url.host;
  } catch {
    return false;
  }
}
