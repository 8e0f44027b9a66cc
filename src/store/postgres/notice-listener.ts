import pg from 'pg';
import type { Logger } from 'pino';

export const LISTENER_APPLICATION_NAME = 'scenarist-listener';

/** Reconnection waits: the first try comes at once (a terminated backend), then backs off to a second. */
const FIRST_RETRY_MS = 25;
const MAX_RETRY_MS = 1_000;

/** Channel names are written into `LISTEN` as identifiers: only plain ones are accepted. */
const CHANNEL_NAME = /^[a-z_][a-z0-9_]*$/;

/** What a subscriber hears: each notification's payload, and each (re)connection. */
export interface NoticeSubscriber {
  onNotice(payload: string | undefined): void;
  /**
   * Called once the channel listens, at the first connection and after every reconnection:
   * notifications sent while the connection was down are lost, so a subscriber catches up here.
   */
  onListening?(): void;
}

/**
 * A process's one LISTEN connection to PostgreSQL, shared by everything that waits for a NOTIFY
 * (the event feed and webhook dispatcher, the cancels of running scenarios), each on its own channel.
 * It connects at the first subscription and, whenever the connection is lost (a restarted database,
 * an operator's `pg_terminate_backend`, a failover), reconnects at once and then every second at
 * most until it succeeds, for as long as the process lives: a failure is logged, never swallowed
 * for good. While it is down a subscriber misses notifications; its `onListening` tells it when to
 * catch up.
 */
export class NoticeListener {
  private readonly subscribers = new Map<string, Set<NoticeSubscriber>>();
  private client: pg.Client | undefined;
  /** The channels the current connection listens on. */
  private listened = new Set<string>();
  private connecting: Promise<void> | undefined;
  private retryTimer: NodeJS.Timeout | undefined;
  private failures = 0;
  private closed = false;

  constructor(
    private readonly databaseUrl: string,
    private readonly log: Logger,
  ) {}

  /**
   * Listens on `channel` for `subscriber`; resolves once it listens (the first subscription rejects
   * when the database cannot be reached, so a process does not start deaf). Answers how to stop.
   */
  async subscribe(channel: string, subscriber: NoticeSubscriber): Promise<() => void> {
    if (!CHANNEL_NAME.test(channel)) throw new TypeError(`notice channel names are lower-case identifiers, not ${JSON.stringify(channel)}`);
    if (this.closed) throw new Error('the notice listener is closed');
    let set = this.subscribers.get(channel);
    if (set === undefined) this.subscribers.set(channel, (set = new Set()));
    set.add(subscriber);
    const unsubscribe = () => void this.subscribers.get(channel)?.delete(subscriber);
    const wasConnected = this.client !== undefined;
    if (!wasConnected && this.retryTimer === undefined) {
      // Connect now, or join the connection under way: either listens on every channel subscribed
      // by the time it is made, and tells their subscribers.
      this.connecting ??= this.connect().finally(() => (this.connecting = undefined));
      try {
        await this.connecting;
      } catch (err) {
        unsubscribe();
        throw err;
      }
    }
    const client = this.client;
    // Else a reconnection is pending: it listens on this channel too.
    if (client === undefined) return unsubscribe;
    if (!this.listened.has(channel)) {
      await client.query(`listen ${channel}`);
      this.listened.add(channel);
      subscriber.onListening?.();
    } else if (wasConnected) {
      subscriber.onListening?.();
    }
    return unsubscribe;
  }

  /** Ends the connection and every retry; subscribers hear nothing more. */
  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.retryTimer);
    await this.connecting?.catch(() => {});
    const client = this.client;
    this.client = undefined;
    await client?.end().catch(() => {});
  }

  private async connect(): Promise<void> {
    const client = new pg.Client({ connectionString: this.databaseUrl, application_name: LISTENER_APPLICATION_NAME });
    client.on('notification', (message) => this.dispatch(message.channel, message.payload));
    client.on('error', (err) => this.lost(client, err));
    client.on('end', () => this.lost(client));
    const channels = [...this.subscribers.keys()];
    try {
      await client.connect();
      if (channels.length > 0) await client.query(channels.map((c) => `listen ${c}`).join('; '));
    } catch (err) {
      client.removeAllListeners('end');
      await client.end().catch(() => {});
      throw err;
    }
    if (this.closed) {
      await client.end().catch(() => {});
      return;
    }
    this.client = client;
    this.listened = new Set(channels);
    this.failures = 0;
    for (const set of this.subscribers.values()) for (const subscriber of set) subscriber.onListening?.();
  }

  private dispatch(channel: string, payload: string | undefined): void {
    for (const subscriber of this.subscribers.get(channel) ?? []) {
      try {
        subscriber.onNotice(payload);
      } catch (err) {
        this.log.error({ err, channel }, 'a notice subscriber failed');
      }
    }
  }

  private lost(client: pg.Client, err?: Error): void {
    if (this.client !== client) return;
    this.client = undefined;
    void client.end().catch(() => {});
    if (this.closed) return;
    this.log.warn({ err }, 'the LISTEN connection was lost; reconnecting');
    this.retry();
  }

  private retry(): void {
    if (this.closed || this.retryTimer !== undefined) return;
    const delay = Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** this.failures);
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      this.connecting = this.connect()
        .catch((err: unknown) => {
          this.failures++;
          this.log.warn({ err, retry_in_ms: Math.min(MAX_RETRY_MS, FIRST_RETRY_MS * 2 ** this.failures) }, 'the LISTEN connection could not reconnect yet');
          this.retry();
        })
        .finally(() => (this.connecting = undefined));
    }, delay);
    this.retryTimer.unref();
  }
}
