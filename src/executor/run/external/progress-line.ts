import type { RunReport } from '../../../domain/run-context.js';

/** A stderr line of the contract that reports progress: `{"progress": 0.4, "message": "...", "objective": 12.5}`. */
export interface ProgressLine {
  readonly progress: number;
  readonly report: RunReport | undefined;
}

/**
 * Reads a stderr line as a progress report when it is a JSON object with a numeric `progress`; undefined
 * for every other line (those go to the run's log as they are). `message`, `objective` and
 * `best_so_far` become the run's report, as `ctx.report` would make them.
 */
export function progressLine(line: string): ProgressLine | undefined {
  if (!line.startsWith('{')) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    return undefined;
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return undefined;
  const { progress, message, objective, best_so_far: bestSoFar } = parsed as Record<string, unknown>;
  if (typeof progress !== 'number') return undefined;
  const report: { message?: string; objective?: number; bestSoFar?: number } = {};
  if (typeof message === 'string') report.message = message;
  if (typeof objective === 'number') report.objective = objective;
  if (typeof bestSoFar === 'number') report.bestSoFar = bestSoFar;
  return { progress, report: Object.keys(report).length > 0 ? report : undefined };
}
