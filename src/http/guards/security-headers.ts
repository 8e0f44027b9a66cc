/**
 * Sent on every response: no MIME sniffing of JSON into something executable, and no caching of API
 * state by browsers or intermediaries (a poll must never see a stale status).
 */
export const SECURITY_HEADERS = Object.freeze({ 'x-content-type-options': 'nosniff', 'cache-control': 'no-store' });
