import type { NoticeListener } from '../../store/postgres/notice-listener.js';
import { fillHostOptions, requireCount, type FilledHostOptions, type HostOptions } from '../host/host-options.js';

/** The distributed executor's options: the host's (see `HostOptions`), its leases and reaper. */
export interface DistributedExecutorOptions extends HostOptions {
  /** PostgreSQL URL: graphile-worker and the worker threads connect with it. */
  readonly databaseUrl: string;
  /**
   * The process's one LISTEN connection, on which cancels of runs are heard (shared with the event
   * feed). Without it the executor opens one of its own, closed with it.
   */
  readonly notices?: NoticeListener;
  /** A run's lease: renewed every `leaseRenewMs`; a run not renewed for `leaseMs` is taken over. */
  readonly leaseMs?: number;
  readonly leaseRenewMs?: number;
  /** How often this process looks for expired leases and queued scenarios without a job. */
  readonly reapIntervalMs?: number;
}

export type FilledDistributedExecutorOptions = FilledHostOptions &
  Required<Omit<DistributedExecutorOptions, 'notices'>> &
  Pick<DistributedExecutorOptions, 'notices'>;

/** Fills defaults and validates once (the host's options as `fillHostOptions` does), naming the option; the result is frozen. */
export function fillDistributedExecutorOptions(options: DistributedExecutorOptions): FilledDistributedExecutorOptions {
  const filled = fillHostOptions(options, { leaseMs: 5_000, leaseRenewMs: 1_000, reapIntervalMs: 1_000 }) as FilledDistributedExecutorOptions;
  for (const key of ['leaseMs', 'leaseRenewMs', 'reapIntervalMs'] as const) requireCount(filled, key);
  if (filled.leaseRenewMs * 2 > filled.leaseMs) throw new TypeError('options.leaseMs must be at least twice options.leaseRenewMs');
  if (!filled.databaseUrl.startsWith('postgres')) throw new TypeError('options.databaseUrl must be a postgres:// URL');
  return Object.freeze(filled);
}
