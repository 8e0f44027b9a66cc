import type { WebhooksRepository } from '../store/webhooks-repository.js';

/**
 * Whether the store may hold any webhook, known without a query, where this process is the store's
 * only writer (SQLite): a commit then wakes the delivery dispatcher only when a delivery could have
 * been queued, instead of costing every request a look at the delivery queue. A registration here
 * says so at once; a deletion is seen by the next `refresh` (the dispatcher's poll). Wrong only
 * ever on the safe side: "may exist" after the last one is gone, until that refresh.
 */
export class WebhookPresence {
  private known: boolean | undefined;
  /** Registrations so far: a refresh that raced with one proves nothing. */
  private registrations = 0;

  constructor(private readonly webhooks: Pick<WebhooksRepository, 'any'>) {}

  mayExist(): boolean {
    return this.known !== false;
  }

  /** A webhook was stored by this process. */
  registered(): void {
    this.registrations++;
    this.known = true;
  }

  async refresh(): Promise<void> {
    const before = this.registrations;
    const any = await this.webhooks.any();
    if (before === this.registrations) this.known = any;
  }
}
