import type { Logger } from 'pino';
import type { AuditService } from './audit-service.js';

const PRUNE_EVERY_MS = 60 * 60_000;

/**
 * Prunes the audit trail past its retention once an hour (and at start). Any number of processes may
 * prune: the head row's lock makes concurrent prunes take turns, and a second finds nothing to do.
 */
export class AuditPruner {
  private timer: NodeJS.Timeout | undefined;
  private pruning = false;

  constructor(
    private readonly audit: AuditService,
    private readonly log: Logger,
  ) {}

  start(): void {
    this.timer = setInterval(() => void this.prune(), PRUNE_EVERY_MS);
    this.timer.unref();
    void this.prune();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  async prune(): Promise<number> {
    if (this.pruning) return 0;
    this.pruning = true;
    try {
      const dropped = await this.audit.prune();
      if (dropped > 0) this.log.info({ dropped }, 'audit trail pruned past its retention');
      return dropped;
    } catch (err) {
      this.log.warn({ err }, 'could not prune the audit trail; trying again later');
      return 0;
    } finally {
      this.pruning = false;
    }
  }
}
