import type { Logger } from 'pino';
import { PeriodicPruner } from '../async/periodic-pruner.js';
import type { AuditService } from './audit-service.js';

const PRUNE_EVERY_MS = 60 * 60_000;

/**
 * Prunes the audit trail past its retention once an hour (and at start). Any number of processes may
 * prune: the head row's lock makes concurrent prunes take turns, and a second finds nothing to do.
 */
export class AuditPruner extends PeriodicPruner {
  constructor(
    private readonly audit: AuditService,
    log: Logger,
  ) {
    super(PRUNE_EVERY_MS, log, 'the audit trail');
  }

  protected dropExpired(): Promise<number> {
    return this.audit.prune();
  }

  protected reportDropped(dropped: number): void {
    this.log.info({ dropped }, 'audit trail pruned past its retention');
  }
}
