import { databaseTime } from './database-time.js';
import { DialectBound } from './dialect-bound.js';
import { eventJson } from './event-json.js';

/** A delivery taken to be sent: where, signed with what, and the event's JSON. */
export interface ClaimedDelivery {
  readonly id: string;
  readonly eventType: string;
  readonly attempts: number;
  readonly url: string;
  readonly secret: string;
  /** The event's JSON text; undefined when the event left the log before it could be delivered. */
  readonly body: string | undefined;
}

/** How an attempt ended, as recorded. */
export interface AttemptRecord {
  readonly ok: boolean;
  /** No more tries: delivered, or failed for good. */
  readonly final: boolean;
  readonly attempts: number;
  readonly responseStatus: number | null;
  readonly error: string | null;
  /** When not final and not delivered: the next try, this long after the database's now. */
  readonly retryInMs: number;
}

/**
 * The webhook delivery queue as the dispatcher works it. Due times and locks are the database's
 * clock, so processes whose clocks disagree share the queue fairly; on PostgreSQL `SKIP LOCKED`
 * lets every API node claim at once without taking the same delivery.
 */
export class WebhookDeliveriesRepository extends DialectBound {

  /** Whether anything is due: a read, so a wake-up with nothing to do costs no write transaction. */
  async anyDue(): Promise<boolean> {
    const row = await this.db
      .selectFrom('webhook_deliveries')
      .select('id')
      .where('status', '=', 'pending')
      .where('next_attempt_at', '<=', databaseTime(this.db, 0))
      .limit(1)
      .executeTakeFirst();
    return row !== undefined;
  }

  /**
   * Takes up to `limit` due deliveries (none of `inFlight`), locked for `lockMs` (a process that dies
   * holding them frees them then), in event order.
   */
  async claimDue(limit: number, inFlight: ReadonlySet<string>, lockMs: number): Promise<ClaimedDelivery[]> {
    return this.db.transaction().execute(async (trx) => {
      const now = databaseTime(trx, 0);
      let due = trx
        .selectFrom('webhook_deliveries')
        .select('id')
        .where('status', '=', 'pending')
        .where('next_attempt_at', '<=', now)
        .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', now)]))
        .orderBy('next_attempt_at')
        .limit(limit);
      due = this.dialect.claimingRows(due);
      const ids = (await due.execute()).map((r) => r.id).filter((id) => !inFlight.has(id));
      if (ids.length === 0) return [];
      await trx.updateTable('webhook_deliveries').set({ locked_until: databaseTime(trx, lockMs) }).where('id', 'in', ids).execute();
      const rows = await trx
        .selectFrom('webhook_deliveries as d')
        .innerJoin('webhooks as w', 'w.id', 'd.webhook_id')
        .leftJoin('event_log as e', 'e.id', 'd.event_id')
        .select(['d.id', 'd.event_type', 'd.attempts', 'w.url', 'w.secret', 'e.id as event_id', 'e.session_id', 'e.at', 'e.data'])
        .where('d.id', 'in', ids)
        .orderBy('d.event_id')
        .execute();
      return rows.map((r) => ({
        id: r.id,
        eventType: r.event_type,
        attempts: r.attempts,
        url: r.url,
        secret: r.secret,
        body:
          r.event_id === null || r.session_id === null || r.at === null || r.data === null
            ? undefined
            : eventJson({ id: r.event_id, type: r.event_type, session_id: r.session_id, at: r.at, data: r.data }),
      }));
    });
  }

  /** Lets another process (or the next start) take the delivery at once. */
  async release(id: string): Promise<void> {
    await this.db.updateTable('webhook_deliveries').set({ locked_until: null }).where('id', '=', id).execute();
  }

  /** Records an attempt of a still-pending delivery: delivered, failed for good, or due again later. */
  async recordAttempt(id: string, attempt: AttemptRecord): Promise<void> {
    await this.db
      .updateTable('webhook_deliveries')
      .set({
        status: attempt.ok ? 'delivered' : attempt.final ? 'failed' : 'pending',
        attempts: attempt.attempts,
        response_status: attempt.responseStatus,
        error: attempt.error,
        next_attempt_at: attempt.final ? null : databaseTime(this.db, attempt.retryInMs),
        delivered_at: attempt.ok ? databaseTime(this.db, 0) : null,
        locked_until: null,
      })
      .where('id', '=', id)
      .where('status', '=', 'pending')
      .execute();
  }
}
