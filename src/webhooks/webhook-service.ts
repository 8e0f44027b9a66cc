import { randomBytes, randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { EventType } from '../model/event-types.js';
import type { Database } from '../store/database.js';
import { WebhooksRepository, type DeliveryRow } from '../store/webhooks-repository.js';
import type { AddressPolicy } from './address-policy.js';
import { checkWebhookUrl } from './webhook-url.js';
import { eventsOf, storedEvents } from './webhook-events.js';
import type { WebhookPresence } from './webhook-presence.js';
import { errors } from '../error-factories.js';
import { noteAuditTarget } from '../model/audit/audit-scope.js';

export interface WebhookView {
  readonly id: string;
  readonly url: string;
  readonly events: EventType[];
  readonly created_at: string;
}

/** A delivery as the delivery log shows it. */
export type DeliveryView = DeliveryRow;

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
  events: eventsOf(row.events),
  created_at: row.created_at,
});

/** Webhooks of a session and their delivery log. Deliveries themselves are the dispatcher's. */
export class WebhookService {
  private readonly repo: WebhooksRepository;

  constructor(
    db: Kysely<Database>,
    /** Literal receiver addresses are judged at registration; names at delivery. */
    private readonly policy: AddressPolicy,
    /** Told of each registration, where it is known without a query (SQLite). */
    private readonly presence?: WebhookPresence,
  ) {
    this.repo = new WebhooksRepository(db);
  }

  /** Stores a webhook; the answer carries the secret, which is never shown again. */
  async create(sessionId: string, input: CreateWebhookInput): Promise<WebhookView & { secret: string }> {
    const url = checkWebhookUrl(input.url, this.policy);
    const secret = input.secret ?? `whsec_${randomBytes(24).toString('hex')}`;
    const row = { id: randomUUID(), session_id: sessionId, url, events: storedEvents(input.events), secret, created_at: new Date().toISOString() };
    noteAuditTarget('webhook', row.id);
    if ((await this.repo.countOf(sessionId)) >= MAX_WEBHOOKS_PER_SESSION) {
      throw errors.webhookLimitReached(MAX_WEBHOOKS_PER_SESSION);
    }
    await this.repo.insert(row);
    this.presence?.registered();
    return { ...viewOf(row), secret };
  }

  async list(sessionId: string): Promise<WebhookView[]> {
    return (await this.repo.list(sessionId)).map(viewOf);
  }

  async get(sessionId: string, id: string): Promise<WebhookView> {
    const row = await this.repo.get(sessionId, id);
    if (!row) throw errors.webhookNotFound(id);

    return viewOf(row);
  }

  /** Deletes a webhook and its delivery log; its pending deliveries are never sent. */
  async delete(sessionId: string, id: string): Promise<void> {
    if (!(await this.repo.delete(sessionId, id))) throw errors.webhookNotFound(id);
  }

  /** The webhook's latest deliveries, newest event first. */
  async deliveries(sessionId: string, id: string): Promise<DeliveryView[]> {
    await this.get(sessionId, id);
    return this.repo.deliveries(id, DELIVERIES_LISTED);
  }
}
