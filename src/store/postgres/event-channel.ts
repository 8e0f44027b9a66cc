import pg from 'pg';
import type { Logger } from 'pino';
import { EVENTS_CHANNEL, type AppendNotice } from './event-notice.js';

/**
 * PostgreSQL wake-ups for the event feed and the webhook dispatcher: every commit of new events, by
 * any API node or worker, is numbered by one of them, which NOTIFYs `EVENTS_CHANNEL`. A dedicated connection LISTENs and reconnects
 * after a database restart; each (re)connection wakes everything once, since notifications sent
 * while it was down are lost (the readers then catch up from the log by id).
 */
export class EventChannel {
  private client: pg.Client | undefined;
  private closed = false;

  constructor(
    private readonly databaseUrl: string,
    private readonly log: Logger,
    private readonly onNotice: (notice: AppendNotice) => void,
  ) {}

  async listen(): Promise<void> {
    if (this.closed) return;
    const client = new pg.Client({ connectionString: this.databaseUrl });
    client.on('notification', (message) => {
      if (message.channel === EVENTS_CHANNEL) this.onNotice(parseNotice(message.payload));
    });
    client.on('error', (err) => {
      this.log.warn({ err }, 'event channel lost its connection; reconnecting');
      void client.end().catch(() => {});
      if (this.client === client) this.client = undefined;
      this.retry();
    });
    await client.connect();
    await client.query(`listen ${EVENTS_CHANNEL}`);
    if (this.closed) {
      await client.end().catch(() => {});
      return;
    }
    this.client = client;
    this.onNotice({ lastId: 0, deliveries: 1 });
  }

  async close(): Promise<void> {
    this.closed = true;
    await this.client?.end().catch(() => {});
    this.client = undefined;
  }

  private retry(): void {
    if (this.closed) return;
    setTimeout(() => {
      this.listen().catch((err: unknown) => {
        this.log.warn({ err }, 'event channel could not reconnect yet');
        this.retry();
      });
    }, 1_000).unref();
  }
}

/** A malformed payload still wakes everything: reading the log is always safe. */
function parseNotice(payload: string | undefined): AppendNotice {
  try {
    const parsed = JSON.parse(payload ?? '') as Partial<AppendNotice>;
    return { lastId: Number(parsed.lastId ?? 0), deliveries: Number(parsed.deliveries ?? 1) };
  } catch {
    return { lastId: 0, deliveries: 1 };
  }
}
