import { Logger as GraphileLogger } from 'graphile-worker';
import type { Logger } from 'pino';

/** graphile-worker's log lines through our pino logger: its errors and warnings as such, the rest at debug. */
export function graphileLogger(log: Logger): GraphileLogger {
  return new GraphileLogger(() => (level, message, meta) => {
    const fields = { component: 'graphile-worker', ...(meta ?? {}) };
    // LogLevel is a const enum without a runtime object, so its string values are compared.
    const severity: string = level;
    if (severity === 'error') log.error(fields, message);
    else if (severity === 'warning') log.warn(fields, message);
    else log.debug(fields, message);
  });
}
