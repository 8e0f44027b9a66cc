import pg from 'pg';
import type { Logger } from 'pino';
import { CANCEL_CHANNEL as CHANNEL } from './cancel-notice.js';

export { notifyCancel } from './cancel-notice.js';

/**
 * Cross-host cancellation: the API node that deletes a running scenario NOTIFYs its id, and the
 * worker process running it (wherever it is) aborts it within moments. A dedicated connection
 * LISTENs; it reconnects when the database restarts. The lease heartbeat is the backstop: a run
 * whose row is gone stops at its next heartbeat even if a notification was missed.
 */
export class CancelChannel {
  private client: pg.Client | undefined;
  private closed = false;

  constructor(
    private readonly databaseUrl: string,
    private readonly log: Logger,
    private readonly onCancel: (scenarioId: string) => void,
  ) {}

  async listen(): Promise<void> {
    if (this.closed) return;
    const client = new pg.Client({ connectionString: this.databaseUrl });
    client.on('notification', (message) => {
      if (message.channel === CHANNEL && message.payload) this.onCancel(message.payload);
    });
    client.on('error', (err) => {
      this.log.warn({ err }, 'cancel channel lost its connection; reconnecting');
      void client.end().catch(() => {});
      if (this.client === client) this.client = undefined;
      setTimeout(() => void this.listen().catch(() => {}), 1_000).unref();
    });
    await client.connect();
    await client.query(`listen ${CHANNEL}`);
    this.client = client;
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.client?.end().catch(() => {});
    this.client = undefined;
  }
}
