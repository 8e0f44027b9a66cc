import type { Settings } from '../../config/settings.js';

/** Node checks its request and header deadlines on this period; never slower than this. */
const MAX_CHECK_INTERVAL_MS = 30_000;

/**
 * Fastify/Node server options from the timeout settings: a request whose headers or body arrive
 * too slowly (a slowloris client, or one that stalls mid-upload) is answered 408 and closed instead
 * of holding a connection forever. Node checks deadlines periodically, so the check runs often
 * enough that a deadline is met within about a quarter of its length.
 */
export function serverTimeouts(settings: Settings) {
  const shortest = Math.min(settings.headersTimeoutMs, settings.requestTimeoutMs || Infinity);
  return {
    requestTimeout: settings.requestTimeoutMs,
    keepAliveTimeout: settings.keepAliveTimeoutMs,
    http: {
      headersTimeout: settings.headersTimeoutMs,
      requestTimeout: settings.requestTimeoutMs,
      keepAliveTimeout: settings.keepAliveTimeoutMs,
      connectionsCheckingInterval: Math.max(50, Math.min(MAX_CHECK_INTERVAL_MS, Math.floor(shortest / 4))),
    },
  } as const;
}
