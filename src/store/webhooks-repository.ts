import type { Kysely } from 'kysely';
import type { Database, WebhookDeliveryStatus } from './database.js';

export interface WebhookRow {
  readonly id: string;
  readonly session_id: string;
  readonly url: string;
  /** JSON array of the event types it receives. */
  readonly events: string;
  readonly secret: string;
  readonly created_at: string;
}

export type WebhookListing = Pick<WebhookRow, 'id' | 'url' | 'events' | 'created_at'>;

export interface DeliveryRow {
  readonly id: string;
  readonly event_id: number;
  readonly event_type: string;
  readonly status: WebhookDeliveryStatus;
  readonly attempts: number;
  readonly response_status: number | null;
  readonly error: string | null;
  readonly next_attempt_at: string | null;
  readonly delivered_at: string | null;
}

/** The `webhooks` table and the delivery log a client reads (the dispatcher has its own queries). */
export class WebhooksRepository {
  constructor(private readonly db: Kysely<Database>) {}

  /** Whether any session has a webhook. */
  async any(): Promise<boolean> {
    return (await this.db.selectFrom('webhooks').select('id').limit(1).executeTakeFirst()) !== undefined;
  }

  async countOf(sessionId: string): Promise<number> {
    const row = await this.db.selectFrom('webhooks').select((eb) => eb.fn.countAll<number | string>().as('n')).where('session_id', '=', sessionId).executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async insert(row: WebhookRow): Promise<void> {
    await this.db.insertInto('webhooks').values(row).execute();
  }

  /** The session's webhooks, oldest first. */
  list(sessionId: string): Promise<WebhookListing[]> {
    return this.db.selectFrom('webhooks').select(['id', 'url', 'events', 'created_at']).where('session_id', '=', sessionId).orderBy('created_at').orderBy('id').execute();
  }

  get(sessionId: string, id: string): Promise<WebhookListing | undefined> {
    return this.db.selectFrom('webhooks').select(['id', 'url', 'events', 'created_at']).where('session_id', '=', sessionId).where('id', '=', id).executeTakeFirst();
  }

  /** Deletes the webhook (its deliveries go with it); false when there was none. */
  async delete(sessionId: string, id: string): Promise<boolean> {
    const result = await this.db.deleteFrom('webhooks').where('session_id', '=', sessionId).where('id', '=', id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  /** The webhook's latest `limit` deliveries, newest event first. */
  async deliveries(webhookId: string, limit: number): Promise<DeliveryRow[]> {
    const rows = await this.db
      .selectFrom('webhook_deliveries')
      .select(['id', 'event_id', 'event_type', 'status', 'attempts', 'response_status', 'error', 'next_attempt_at', 'delivered_at'])
      .where('webhook_id', '=', webhookId)
      .orderBy('event_id', 'desc')
      .limit(limit)
      .execute();
    return rows.map((r) => ({ ...r, event_id: Number(r.event_id) }));
  }
}
