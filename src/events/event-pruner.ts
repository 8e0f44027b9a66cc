import type { Logger } from 'pino';
import { PeriodicPruner } from '../async/periodic-pruner.js';
import type { EventLog } from '../store/event-log.js';

/** How long events stay resumable, and how often older ones are dropped. */
export const EVENT_RETENTION_MS = 24 * 3_600_000;
const PRUNE_EVERY_MS = 10 * 60_000;

/**
 * Keeps the event log bounded: every few minutes, events older than the retention are dropped (with
 * finished webhook deliveries of that age). Any number of processes may prune; deletes are idempotent.
 */
export class EventPruner extends PeriodicPruner {
  constructor(
    private readonly eventLog: EventLog,
    log: Logger,
    private readonly retentionMs = EVENT_RETENTION_MS,
  ) {
    super(PRUNE_EVERY_MS, log, 'the event log');
  }

  protected dropExpired(): Promise<number> {
    return this.eventLog.prune(new Date(Date.now() - this.retentionMs).toISOString());
  }

  protected reportDropped(dropped: number): void {
    this.log.debug({ dropped }, 'event log pruned');
  }
}
