import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import type { Database } from '../store/database.js';
import type { StoreDialect } from '../store/dialect.js';
import { WebhookDeliveriesRepository, type ClaimedDelivery } from '../store/webhook-deliveries-repository.js';
import { CoalescedTask } from '../async/coalesced-task.js';
import type { AddressPolicy } from './address-policy.js';
import type { WebhookPresence } from './webhook-presence.js';
import { MAX_ATTEMPTS, retryDelayMs } from './backoff.js';
import { postToReceiver, systemResolver, type Resolver } from './receiver-request.js';
import { DELIVERY_HEADER, EVENT_HEADER, sign, SIGNATURE_HEADER, TIMESTAMP_HEADER } from './signature.js';

export interface DeliveryDispatcherOptions {
  readonly db: Kysely<Database>;
  readonly dialect: StoreDialect;
  readonly log: Logger;
  /** Which addresses requests may go to (the `webhook_allow_networks` setting). */
  readonly policy: AddressPolicy;
  /** Resolves receivers' host names; the system's resolver unless a test points names elsewhere. */
  readonly resolve?: Resolver;
  /** Requests in flight at once from this process. */
  readonly concurrency?: number;
  /** A receiver slower than this counts as a failed attempt. */
  readonly timeoutMs?: number;
  /** How often due deliveries are looked for without a wake-up (retries of other processes, restarts). */
  readonly pollMs?: number;
  /** Where this process is the only writer (SQLite): whether a commit may have queued any delivery. */
  readonly presence?: WebhookPresence;
}

/** One claimed delivery, with what is needed to send it. */
type Claimed = ClaimedDelivery;

interface Attempt {
  readonly ok: boolean;
  readonly status: number | null;
  readonly error: string | null;
  /** Not worth trying again (the target is refused, or the event is gone). */
  readonly final?: boolean;
  /** Cut short by this process's shutdown, not by the receiver. */
  readonly interrupted?: boolean;
}

/**
 * Sends webhook deliveries. The queue is the `webhook_deliveries` table itself, so it survives
 * restarts on both dialects; a dispatcher claims due rows with a time-bounded lock (on PostgreSQL
 * with SKIP LOCKED, so several API nodes share the queue without sending anything twice at once).
 * Requests never run on a client's request path. A failure is retried after 1 s, 2 s, 4 s ... up to
 * `MAX_ATTEMPTS` attempts, then the delivery is `failed`. Every time (due, lock, next try, delivered)
 * is the database's clock, so processes on hosts whose clocks disagree share the queue fairly.
 * A target the address policy refuses is `failed` at once, without a request.
 */
export class DeliveryDispatcher {
  private readonly concurrency: number;
  private readonly timeoutMs: number;
  private readonly inFlight = new Map<string, Promise<void>>();
  private readonly abort = new AbortController();
  private readonly claiming = new CoalescedTask(
    () => this.claimAndSend(),
    (err) => this.options.log.warn({ err }, 'webhook dispatcher: could not claim deliveries; retrying'),
  );
  private poller: NodeJS.Timeout | undefined;
  private readonly retryTimers = new Set<NodeJS.Timeout>();
  private closed = false;

  private readonly deliveries: WebhookDeliveriesRepository;

  constructor(private readonly options: DeliveryDispatcherOptions) {
    this.concurrency = options.concurrency ?? 8;
    this.timeoutMs = options.timeoutMs ?? 10_000;
    this.deliveries = new WebhookDeliveriesRepository(options.db, options.dialect);
  }

  start(): void {
    this.poller = setInterval(() => void this.poll(), this.options.pollMs ?? 1_000);
    this.poller.unref();
    void this.poll();
  }

  /** Deliveries may be due: claim and send them (coalesced). */
  poke(): void {
    this.claiming.ask();
  }

  /** This process committed events: their deliveries, if any, are due now. */
  committed(): void {
    if (this.options.presence?.mayExist() ?? true) this.poke();
  }

  private async poll(): Promise<void> {
    if (this.closed) return;
    await this.options.presence?.refresh().catch((err: unknown) => this.options.log.warn({ err }, 'webhook dispatcher: could not look for webhooks'));
    this.poke();
  }

  /** Stops claiming; requests in flight are abandoned and their deliveries released for a later try. */
  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.poller);
    for (const timer of this.retryTimers) clearTimeout(timer);
    this.abort.abort();
    await this.claiming.stop();
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
    if (!(await this.deliveries.anyDue())) return [];
    // Held long enough for the request and its record.
    return this.deliveries.claimDue(limit, new Set(this.inFlight.keys()), this.timeoutMs * 3);
  }

  private async deliver(delivery: Claimed): Promise<void> {
    const attempt: Attempt =
      delivery.body === undefined
        ? { ok: false, status: null, error: 'the event left the event log before it was delivered', final: true }
        : await this.send(delivery, delivery.body);
    if (attempt.interrupted) {
      // Interrupted by the shutdown, not the receiver's fault: another process or the next start retries.
      await this.deliveries.release(delivery.id).catch(() => {});
      return;
    }
    const attempts = delivery.attempts + 1;
    const giveUp = !attempt.ok && (attempts >= MAX_ATTEMPTS || attempt.final === true);
    const retryIn = retryDelayMs(attempts);
    try {
      await this.deliveries.recordAttempt(delivery.id, {
        ok: attempt.ok,
        final: attempt.ok || giveUp,
        attempts,
        responseStatus: attempt.status,
        error: attempt.error,
        retryInMs: retryIn,
      });
    } catch (err) {
      this.options.log.warn({ err, delivery: delivery.id }, 'webhook dispatcher: could not record an attempt; it is tried again');
      return;
    }
    if (!attempt.ok && !giveUp) this.wakeIn(retryIn);
    if (giveUp) this.options.log.warn({ delivery: delivery.id, url: delivery.url, error: attempt.error }, 'webhook delivery failed for good');
  }

  private async send(delivery: Claimed, body: string): Promise<Attempt> {
    const timestamp = Math.floor(Date.now() / 1000);
    const outcome = await postToReceiver(
      {
        url: delivery.url,
        headers: {
          'content-type': 'application/json',
          'user-agent': 'Scenarist-Webhooks/1',
          [EVENT_HEADER]: delivery.eventType,
          [DELIVERY_HEADER]: delivery.id,
          [TIMESTAMP_HEADER]: String(timestamp),
          [SIGNATURE_HEADER]: sign(delivery.secret, timestamp, body),
        },
        body,
        signal: AbortSignal.any([this.abort.signal, AbortSignal.timeout(this.timeoutMs)]),
      },
      this.options.policy,
      this.options.resolve ?? systemResolver,
      () => this.closed,
    );
    switch (outcome.kind) {
      case 'answered': {
        const ok = outcome.status >= 200 && outcome.status < 300;
        return { ok, status: outcome.status, error: ok ? null : `the receiver answered ${outcome.status}` };
      }
      case 'refused':
        return { ok: false, status: null, error: outcome.error, final: true };
      case 'unreachable':
        return { ok: false, status: null, error: outcome.error };
      case 'aborted':
        return { ok: false, status: null, error: null, interrupted: true };
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
