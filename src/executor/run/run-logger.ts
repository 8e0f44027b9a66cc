import type { Logger } from 'pino';
import type { RunLogger } from '../../domain/run-context.js';
import type { LogLevel } from '../../model/run-state/run-insight.js';

/** Where `ctx.log` lines are kept besides the server log (`InsightRecorder`). */
export interface LogSink {
  log(level: LogLevel, message: unknown, fields: unknown): void;
}

/**
 * `ctx.log` of an algorithm: a pino logger whose lines carry the scenario and session ids, each line
 * also handed to `sink` (kept with the run for `GET .../logs`).
 */
export function runLogger(log: Logger, ids: { scenarioId: string; sessionId: string }, sink?: LogSink): RunLogger {
  const child = log.child({ scenario_id: ids.scenarioId, session_id: ids.sessionId });
  return {
    info: (message, fields) => {
      child.info(fields ?? {}, message);
      sink?.log('info', message, fields);
    },
    warn: (message, fields) => {
      child.warn(fields ?? {}, message);
      sink?.log('warn', message, fields);
    },
    error: (message, fields) => {
      child.error(fields ?? {}, message);
      sink?.log('error', message, fields);
    },
  };
}
