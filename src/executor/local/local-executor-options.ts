import { fillHostOptions, requireCount, type FilledHostOptions, type HostOptions } from '../host/host-options.js';

/** The local executor's options: the host's (see `HostOptions`), and how it looks at the queue. */
export interface LocalExecutorOptions extends HostOptions {
  /**
   * How often the queue is looked at though nothing said a run was queued: a backstop for a path that
   * queued a run without telling the executor, which then waits this long at most, not until another
   * request dispatches. A look while nothing waits is one indexed read.
   */
  readonly queueSweepMs?: number;
  /** The queue knowledge that skips empty looks (a speed layer; off only for a benchmark). */
  readonly quietQueue?: boolean;
}

export type FilledLocalExecutorOptions = FilledHostOptions & Required<LocalExecutorOptions>;

/** Fills defaults and validates once (the host's options as `fillHostOptions` does), naming the option; the result is frozen. */
export function fillLocalExecutorOptions(options: LocalExecutorOptions): FilledLocalExecutorOptions {
  const filled = fillHostOptions(options, { quietQueue: true, queueSweepMs: 5_000 }) as FilledLocalExecutorOptions;
  requireCount(filled, 'queueSweepMs', true);
  return Object.freeze(filled);
}
