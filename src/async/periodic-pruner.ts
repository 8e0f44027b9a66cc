import type { Logger } from 'pino';

/**
 * Drops what is past its retention every `everyMs` (and once at start), one prune at a time: a prune
 * still running when the next is due is not doubled. A failed prune is logged and tried again at the
 * next turn. Subclasses say what to drop and how to report it.
 */
export abstract class PeriodicPruner {
  private timer: NodeJS.Timeout | undefined;
  private pruning = false;

  constructor(
    private readonly everyMs: number,
    protected readonly log: Logger,
    /** What is pruned, for the warning of a failed prune ("the event log"). */
    private readonly what: string,
  ) {}

  start(): void {
    this.timer = setInterval(() => void this.prune(), this.everyMs);
    this.timer.unref();
    void this.prune();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  /** Drops what is past the retention now; answers how many were dropped. */
  async prune(): Promise<number> {
    if (this.pruning) return 0;
    this.pruning = true;
    try {
      const dropped = await this.dropExpired();
      if (dropped > 0) this.reportDropped(dropped);
      return dropped;
    } catch (err) {
      this.log.warn({ err }, `could not prune ${this.what}; trying again later`);
      return 0;
    } finally {
      this.pruning = false;
    }
  }

  protected abstract dropExpired(): Promise<number>;

  protected abstract reportDropped(dropped: number): void;
}
