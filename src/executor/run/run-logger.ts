import type { Logger } from 'pino';
import type { RunLogger } from '../../domain/define.js';

/** `ctx.log` of an algorithm: a pino logger whose lines carry the scenario and session ids. */
export function runLogger(log: Logger, ids: { scenarioId: string; sessionId: string }): RunLogger {
  const child = log.child({ scenario_id: ids.scenarioId, session_id: ids.sessionId });
  return {
    info: (message, fields) => child.info(fields ?? {}, message),
    warn: (message, fields) => child.warn(fields ?? {}, message),
    error: (message, fields) => child.error(fields ?? {}, message),
  };
}
