import pino, { type Logger } from 'pino';
import type { Settings } from '../config/settings.js';

/** JSON logs on stdout (one line per event), at the configured level. */
export function createLogger(settings: Pick<Settings, 'logLevel'>): Logger {
  return pino({
    level: settings.logLevel,
    serializers: {
      // Client address and scheme as resolved through trusted proxies (forwarded_allow_ips).
      req: (req: { method?: string; url?: string; ip?: string; protocol?: string; raw?: unknown; id?: string }) => ({
        method: req.method,
        url: req.url,
        client: req.ip,
        scheme: req.protocol,
      }),
    },
  });
}
