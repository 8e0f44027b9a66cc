import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Database } from '../store/database.js';
import type { StoreDialect } from '../store/dialect.js';
import { MAX_ATTEMPTS, retryDelayMs } from './backoff.js';
import { DELIVERY_HEADER, EVENT_HEADER, sign, SIGNATURE_HEADER, TIMESTAMP_HEADER } from './signature.js';

export interface DeliveryDispatcherOptions {
  readonly db: Kysely<Database>;
  readonly dialect: StoreDialect;
  readonly log: Logger;
  /** Requests in flight at once from this process. */
  readonly concurrency?: number;
  /** A receiver slower than this counts as a failed attempt. */
  readonly timeoutMs?: number;
  /** How often due deliveries are looked for without a wake-up (retries of other processes, restarts). */
  readonly pollMs?: number;
}

/** One claimed delivery, with what is needed to send it. */
interface Claimed {
  readonly id: string;
  readonly eventType: string;
  readonly attempts: number;
  readonly url: string;
  readonly secret: string;
  /** The event's JSON text; undefined when the event left the log before it could be delivered. */
  readonly body: string | undefined;
}

interface Attempt {
  readonly ok: boolean;
  readonly status: number | null;
  readonly error: string | null;
}

const iso = (ms: number) => new Date(ms).toISOString();

/**
 * Sends webhook deliveries. The queue is the `webhook_deliveries` table itself, so it survives
 * restarts on both dialects; a dispatcher claims due rows with a time-bounded lock (on PostgreSQL
 * with SKIP LOCKED, so several API nodes share the queue without sending anything twice at once).
 * Requests never run on a client's request path. A failure is retried after 1 s, 2 s, 4 s ... up to
 * `MAX_ATTEMPTS` attempts, then the delivery is `failed`.
 */
export class DeliveryDispatcher {
  private readonly concurrency: number;
  private readonly timeoutMs: number;
  private readonly inFlight = new Map<string, Promise<void>>();
  private readonly abort = new AbortController();
  private running: Promise<void> | undefined;
  private runAgain = false;
  private poller: NodeJS.Timeout | undefined;
  private readonly retryTimers = new Set<NodeJS.Timeout>();
  private closed = false;

  constructor(private readonly options: DeliveryDispatcherOptions) {
    this.concurrency = options.concurrency ?? 8;
    this.timeoutMs = options.timeoutMs ?? 10_000;
  }

  start(): void {
    this.poller = setInterval(() => this.poke(), this.options.pollMs ?? 1_000);
    this.poller.unref();
    this.poke();
  }

  /** Deliveries may be due: claim and send them (coalesced). */
  poke(): void {
    if (this.closed) return;
    if (this.running) {
      this.runAgain = true;
      return;
    }
    this.running = this.claimAndSend()
      .catch((err: unknown) => this.options.log.warn({ err }, 'webhook dispatcher: could not claim deliveries; retrying'))
      .finally(() => {
        this.running = undefined;
        if (this.runAgain) {
          this.runAgain = false;
          this.poke();
        }
      });
  }

  /** Stops claiming; requests in flight are abandoned and their deliveries released for a later try. */
  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.poller);
    for (const timer of this.retryTimers) clearTimeout(timer);
    this.abort.abort();
    await this.running;
    await Promise.all(this.inFlight.values());
  }

  private async claimAndSend(): Promise<void> {
    for (;;) {
      const free = this.concurrency - this.inFlight.size;
      if (free <= 0 || this.closed) return;
      const claimed = await this.claim(free);
      for (const delivery of claimed) {
        const sending = this.deliver(delivery).finally(() => {
          this.inFlight.delete(delivery.id);
          this.poke(); // a slot is free again
        });
        this.inFlight.set(delivery.id, sending);
      }
      if (claimed.length < free) return;
    }
  }

  private async claim(limit: number): Promise<Claimed[]> {
    const now = Date.now();
    // Held long enough for the request and its record; a process that dies holding it frees it then.
    const lockedUntil = iso(now + this.timeoutMs * 3);
    return this.options.db.transaction().execute(async (trx) => {
      let due = trx
        .selectFrom('webhook_deliveries')
        .select('id')
        .where('status', '=', 'pending')
        .where('next_attempt_at', '<=', iso(now))
        .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<', iso(now))]))
        .orderBy('next_attempt_at')
        .limit(limit);
      if (this.options.dialect === 'postgres') due = due.forUpdate().skipLocked();
      const ids = (await due.execute()).map((r) => r.id).filter((id) => !this.inFlight.has(id));
      if (ids.length === 0) return [];
      await trx.updateTable('webhook_deliveries').set({ locked_until: lockedUntil }).where('id', 'in', ids).execute();
      const rows = await trx
        .selectFrom('webhook_deliveries as d')
        .innerJoin('webhooks as w', 'w.id', 'd.webhook_id')
        .leftJoin('event_log as e', 'e.id', 'd.event_id')
        .select(['d.id', 'd.event_type', 'd.attempts', 'w.url', 'w.secret', 'e.data'])
        .where('d.id', 'in', ids)
        .orderBy('d.event_id')
        .execute();
      return rows.map((r) => ({
        id: r.id,
        eventType: r.event_type,
        attempts: r.attempts,
        url: r.url,
        secret: r.secret,
        body: r.data ?? undefined,
      }));
    });
  }

  private async deliver(delivery: Claimed): Promise<void> {
    const attempt: Attempt =
      delivery.body === undefined ? { ok: false, status: null, error: 'the event left the event log before it was delivered' } : await this.send(delivery, delivery.body);
    if (this.closed && !attempt.ok && attempt.status === null) {
      // Interrupted by the shutdown, not the receiver's fault: another process or the next start retries.
      await this.options.db.updateTable('webhook_deliveries').set({ locked_until: null }).where('id', '=', delivery.id).execute().catch(() => {});
      return;
    }
    const attempts = delivery.attempts + 1;
    const now = Date.now();
    const giveUp = !attempt.ok && (attempts >= MAX_ATTEMPTS || delivery.body === undefined);
    const retryIn = retryDelayMs(attempts);
    try {
      await this.options.db
        .updateTable('webhook_deliveries')
        .set({
          status: attempt.ok ? 'delivered' : giveUp ? 'failed' : 'pending',
          attempts,
          response_status: attempt.status,
          error: attempt.error,
          next_attempt_at: attempt.ok || giveUp ? null : iso(now + retryIn),
          delivered_at: attempt.ok ? iso(now) : null,
          locked_until: null,
        })
        .where('id', '=', delivery.id)
        .where('status', '=', 'pending')
        .execute();
    } catch (err) {
      this.options.log.warn({ err, delivery: delivery.id }, 'webhook dispatcher: could not record an attempt; it is tried again');
      return;
    }
    if (!attempt.ok && !giveUp) this.wakeIn(retryIn);
    if (giveUp) this.options.log.warn({ delivery: delivery.id, url: delivery.url, error: attempt.error }, 'webhook delivery failed for good');
  }

  private async send(delivery: Claimed, body: string): Promise<Attempt> {
    const timestamp = Math.floor(Date.now() / 1000);
    try {
      const res = await fetch(delivery.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          'user-agent': 'Scenarist-Webhooks/1',
          [EVENT_HEADER]: delivery.eventType,
          [DELIVERY_HEADER]: delivery.id,
          [TIMESTAMP_HEADER]: String(timestamp),
          [SIGNATURE_HEADER]: sign(delivery.secret, timestamp, body),
        },
        body,
        // A redirect is the receiver's misconfiguration, not a place to send signed events to.
        redirect: 'manual',
        signal: AbortSignal.any([this.abort.signal, AbortSignal.timeout(this.timeoutMs)]),
      });
      await res.body?.cancel().catch(() => {});
      const ok = res.status >= 200 && res.status < 300;
      return { ok, status: res.status, error: ok ? null : `the receiver answered ${res.status}` };
    } catch (err) {
      return { ok: false, status: null, error: describeFailure(err) };
    }
  }

  private wakeIn(ms: number): void {
    const timer = setTimeout(() => {
      this.retryTimers.delete(timer);
      this.poke();
    }, ms + 10);
    timer.unref();
    this.retryTimers.add(timer);
  }
}

/** `fetch failed` says little; its cause names the network error (ECONNREFUSED, a timeout ...). */
function describeFailure(err: unknown): string {
  const error = err as { name?: string; message?: string; cause?: { code?: string; message?: string } };
  if (error.name === 'TimeoutError') return 'the receiver did not answer in time';
  const cause = error.cause?.code ?? error.cause?.message;
  return cause ? `${error.message ?? 'request failed'}: ${cause}` : (error.message ?? String(err));
}
