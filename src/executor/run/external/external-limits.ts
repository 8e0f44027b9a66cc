/**
 * The bounds every external algorithm runs within (settings `external_*`, README "Settings"). Plain
 * data, so it crosses into the worker threads with their configuration.
 */
export interface ExternalLimits {
  /** After SIGTERM on cancel or time limit, how long the program's process group has before SIGKILL. */
  readonly killGraceMs: number;
  /** Most bytes the program may write on stdout (its result); past it the run fails OUTPUT_LIMIT. */
  readonly stdoutBytes: number;
  /** Longest line the program may write on stderr; past it the run fails LOG_LIMIT. */
  readonly stderrLineBytes: number;
  /** Most stderr lines per second, over any one-second window (a burst of this many is fine); past it LOG_LIMIT. */
  readonly stderrLinesPerSecond: number;
  /** The program's address-space limit in bytes (`ulimit -v`); 0: none. Running out fails the run MEMORY_LIMIT. */
  readonly memoryBytes: number;
}

const MiB = 1024 ** 2;

export const DEFAULT_EXTERNAL_LIMITS: ExternalLimits = Object.freeze({
  killGraceMs: 1_000,
  stdoutBytes: 256 * MiB,
  stderrLineBytes: 64 * 1024,
  stderrLinesPerSecond: 1_000,
  memoryBytes: 4 * 1024 * MiB,
});
