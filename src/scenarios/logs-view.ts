import type { ScenarioLogsRecord } from '../store/scenarios-repository.js';
import { LOG_LEVELS, MAX_LOG_LINES, type LogLevel } from '../model/run-state/run-insight.js';

/** One `ctx.log` line as served. */
export interface LogLineView {
  readonly at: string;
  readonly level: LogLevel;
  readonly message: string;
  readonly fields?: Readonly<Record<string, unknown>>;
}

/** `GET .../scenarios/{id}/logs` (docs/api/runs.md, "Run insight"). */
export interface LogsView {
  readonly lines: LogLineView[];
  /** The run wrote more lines than the last 1,000 served. */
  readonly truncated: boolean;
  /** Only when FAILED by an error the domain's code threw. */
  readonly error?: { readonly class: string; readonly message: string; readonly stack: string[] };
}

const asLevel = (level: string): LogLevel => ((LOG_LEVELS as readonly string[]).includes(level) ? (level as LogLevel) : 'info');

export function logsView(record: ScenarioLogsRecord): LogsView {
  const lines = record.lines.map((line): LogLineView => ({
    at: line.at,
    level: asLevel(line.level),
    message: line.message,
    ...(line.fields === null ? {} : { fields: JSON.parse(line.fields) as Record<string, unknown> }),
  }));
  const errorClass = record.status === 'FAILED' ? record.errorClass : null;
  const stack = record.errorStack === null ? [] : (JSON.parse(record.errorStack) as string[]);
  return {
    lines,
    truncated: record.logCount > MAX_LOG_LINES,
    ...(errorClass === null ? {} : { error: { class: errorClass, message: record.error ?? '', stack } }),
  };
}
