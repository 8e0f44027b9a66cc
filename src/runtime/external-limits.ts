import type { Settings } from '../config/settings.js';
import type { ExternalLimits } from '../executor/run/external/external-limits.js';

/** How long a stopped run's thread lives after its abort signal when nothing asks for longer (the executors' default). */
export const DEFAULT_CANCEL_GRACE_MS = 2_000;
/** What a stopped run's thread gets beyond its external program's kill grace, to send the SIGKILL and settle. */
export const KILL_MARGIN_MS = 1_000;

/** The `external_*` settings as the bounds the worker threads apply. */
export function externalLimitsOf(settings: Settings): ExternalLimits {
  return Object.freeze({
    killGraceMs: settings.externalKillGraceMs,
    stdoutBytes: settings.externalStdoutLimitBytes,
    stderrLineBytes: settings.externalStderrLineLimitBytes,
    stderrLinesPerSecond: settings.externalStderrRate,
    memoryBytes: settings.externalMemoryLimitBytes,
  });
}
