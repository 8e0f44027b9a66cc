import type { Logger } from 'pino';
import type { EventLog } from '../store/event-log.js';

/** How long events stay resumable, and how often older ones are dropped. */
export const EVENT_RETENTION_MS = 24 * 3_600_000;
const PRUNE_EVERY_MS = 10 * 60_000;

/**
 * Keeps the event log bounded: every few minutes, events older than the retention are dropped (with
 * finished webhook deliveries of that age). Any number of processes may prune; deletes are idempotent.
 */
export class EventPruner {
  private timer: NodeJS.Timeout | undefined;
  private pruning = false;

  constructor(
    private readonly eventLog: EventLog,
    private readonly log: Logger,
    private readonly retentionMs = EVENT_RETENTION_MS,
  ) {}

  start(): void {
    this.timer = setInterval(() => void this.prune(), PRUNE_EVERY_MS);
    this.timer.unref();
    void this.prune();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  /** Drops what is past the retention now; answers the events dropped. */
  async prune(): Promise<number> {
    if (this.pruning) return 0;
    this.pruning = true;
    try {
      const dropped = await this.eventLog.prune(new Date(Date.now() - this.retentionMs).toISOString());
      if (dropped > 0) this.log.debug({ dropped }, 'event log pruned');
      return dropped;
    } catch (err) {
      this.log.warn({ err }, 'could not prune the event log; trying again later');
      return 0;
    } finally {
      this.pruning = false;
    }
  }
}
