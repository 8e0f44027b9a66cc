import { randomBytes, randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import { conflict, notFound } from '../errors.js';
import { EVENT_TYPES, type EventType } from '../store/event-types.js';
import type { Database, WebhookDeliveryStatus } from '../store/database.js';
import type { AddressPolicy } from './address-policy.js';
import { checkWebhookUrl } from './webhook-url.js';

export interface WebhookView {
  readonly id: string;
  readonly url: string;
  readonly events: EventType[];
  readonly created_at: string;
}

export interface DeliveryView {
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

export interface CreateWebhookInput {
  readonly url: string;
  readonly events?: readonly EventType[];
  readonly secret?: string;
}

/** Webhooks one session may have; more is a 409 (each event fans out to every one). */
export const MAX_WEBHOOKS_PER_SESSION = 50;
/** Deliveries listed per webhook, newest first. */
const DELIVERIES_LISTED = 100;

const viewOf = (row: { id: string; url: string; events: string; created_at: string }): WebhookView => ({
  id: row.id,
  url: row.url,
  events: JSON.parse(row.events) as EventType[],
  created_at: row.created_at,
});

/** Webhooks of a session and their delivery log. Deliveries themselves are the dispatcher's. */
export class WebhookService {
  constructor(
    private readonly db: Kysely<Database>,
    /** Literal receiver addresses are judged at registration; names at delivery. */
    private readonly policy: AddressPolicy,
  ) {}

  /** Stores a webhook; the answer carries the secret, which is never shown again. */
  async create(sessionId: string, input: CreateWebhookInput): Promise<WebhookView & { secret: string }> {
    const url = checkWebhookUrl(input.url, this.policy);
    const events = input.events === undefined ? [...EVENT_TYPES] : EVENT_TYPES.filter((t) => input.events!.includes(t));
    const secret = input.secret ?? `whsec_${randomBytes(24).toString('hex')}`;
    const row = { id: randomUUID(), session_id: sessionId, url, events: JSON.stringify(events), secret, created_at: new Date().toISOString() };
    const count = await this.db.selectFrom('webhooks').select((eb) => eb.fn.countAll<number | string>().as('n')).where('session_id', '=', sessionId).executeTakeFirstOrThrow();
    if (Number(count.n) >= MAX_WEBHOOKS_PER_SESSION) {
      throw conflict(`the session already has ${MAX_WEBHOOKS_PER_SESSION} webhooks; delete one first`, 'WEBHOOK_LIMIT_REACHED');
    }
    await this.db.insertInto('webhooks').values(row).execute();
    return { ...viewOf(row), secret };
  }

  async list(sessionId: string): Promise<WebhookView[]> {
    const rows = await this.db
      .selectFrom('webhooks')
      .select(['id', 'url', 'events', 'created_at'])
      .where('session_id', '=', sessionId)
      .orderBy('created_at')
      .orderBy('id')
      .execute();
    return rows.map(viewOf);
  }

  async get(sessionId: string, id: string): Promise<WebhookView> {
    const row = await this.db
      .selectFrom('webhooks')
      .select(['id', 'url', 'events', 'created_at'])
      .where('session_id', '=', sessionId)
      .where('id', '=', id)
      .executeTakeFirst();
    if (!row) throw notFound(`webhook '${id}' not found`, 'WEBHOOK_NOT_FOUND');
    return viewOf(row);
  }

  /** Deletes a webhook and its delivery log; its pending deliveries are never sent. */
  async delete(sessionId: string, id: string): Promise<void> {
    const result = await this.db.deleteFrom('webhooks').where('session_id', '=', sessionId).where('id', '=', id).executeTakeFirst();
    if (Number(result.numDeletedRows) === 0) throw notFound(`webhook '${id}' not found`, 'WEBHOOK_NOT_FOUND');
  }

  /** The webhook's latest deliveries, newest event first. */
  async deliveries(sessionId: string, id: string): Promise<DeliveryView[]> {
    await this.get(sessionId, id);
    const rows = await this.db
      .selectFrom('webhook_deliveries')
      .select(['id', 'event_id', 'event_type', 'status', 'attempts', 'response_status', 'error', 'next_attempt_at', 'delivered_at'])
      .where('webhook_id', '=', id)
      .orderBy('event_id', 'desc')
      .limit(DELIVERIES_LISTED)
      .execute();
    return rows.map((r) => ({ ...r, event_id: Number(r.event_id) }));
  }
}
