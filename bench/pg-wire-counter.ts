/**
 * Counts what processes send PostgreSQL, at the wire: a TCP proxy in front of the server that reads
 * the frontend protocol of every connection through it. It needs nothing of the database
 * (pg_stat_statements would need a restart with `shared_preload_libraries`) and nothing of the
 * processes counted (their worker threads included: they connect through it like everything else).
 *
 * - a statement is a simple `Query` or an extended-protocol `Execute` (whose text is that of the
 *   prepared statement its portal was bound to: named statements are parsed once per connection);
 * - a round trip is a `Query` or a `Sync` (node-postgres sends Parse/Bind/Describe/Execute/Sync of
 *   a query at once, and waits for the answer).
 * Each statement is counted under its text with literals and parameters collapsed, so the figures
 * can be told apart by kind.
 *
 * It also times each round trip: from the frontend message that ends it (`Query` or `Sync`) to the
 * backend's `ReadyForQuery`, as the proxy sees them, so the database's share of a path (its work, the
 * WAL flush of a commit, the loopback) is told apart by statement from the processes' own time. The
 * time is shared equally among the statements the round trip carried (node-postgres sends one).
 */
import { createServer, connect, type Server, type Socket } from 'node:net';

export interface WireCounts {
  statements: number;
  roundTrips: number;
  /** Statement count per normalized text. */
  readonly byText: Map<string, number>;
  /** Milliseconds waited for the database, in all and per normalized text. */
  waitMs: number;
  readonly msByText: Map<string, number>;
}

const emptyCounts = (): WireCounts => ({ statements: 0, roundTrips: 0, byText: new Map(), waitMs: 0, msByText: new Map() });

/** A round trip sent and not yet answered: the statements it carried, and when it was sent. */
interface Pending {
  readonly texts: readonly string[];
  readonly at: number;
}

/** What the two directions of one connection share: the round trips in flight, oldest first. */
interface Connection {
  readonly pending: Pending[];
  /** SSL or GSS requests sent: each is answered by one untyped byte. */
  negotiations: number;
}

/** Startup, SSL and cancel requests carry no type byte; every later frontend message does. */
const UNTYPED_FIRST_MESSAGE = true;

/** Collapses what varies between two runs of one statement, so counts group by kind. */
export function normalizeStatement(text: string): string {
  return text
    .replace(/\s+/g, ' ')
    .replace(/'(?:[^']|'')*'/g, "'?'")
    .replace(/\$\d+/g, '$n')
    .replace(/\b\d+\b/g, 'N')
    .trim()
    .slice(0, 140);
}

/** Reads one connection's frontend messages as they stream by, counting statements and round trips. */
class FrontendReader {
  private buffer: Buffer = Buffer.alloc(0);
  private startup = UNTYPED_FIRST_MESSAGE;
  private readonly prepared = new Map<string, string>();
  private readonly portals = new Map<string, string>();
  /** Statements executed since the last `Sync`. */
  private batch: string[] = [];

  constructor(
    private readonly counts: () => WireCounts,
    private readonly connection: Connection,
  ) {}

  feed(chunk: Buffer): void {
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
    for (;;) {
      if (this.startup) {
        if (this.buffer.length < 8) return;
        const length = this.buffer.readInt32BE(0);
        if (this.buffer.length < length) return;
        const code = this.buffer.readInt32BE(4);
        // An SSL or GSS request is followed by another untyped startup message.
        const negotiation = code === 80877103 || code === 80877104;
        if (negotiation) this.connection.negotiations++;
        this.buffer = this.buffer.subarray(length);
        this.startup = negotiation;
        continue;
      }
      if (this.buffer.length < 5) return;
      const length = this.buffer.readInt32BE(1);
      if (this.buffer.length < 1 + length) return;
      this.message(String.fromCharCode(this.buffer[0]!), this.buffer.subarray(5, 1 + length));
      this.buffer = this.buffer.subarray(1 + length);
    }
  }

  private message(type: string, body: Buffer): void {
    const counts = this.counts();
    const strings = () => body.toString('utf8').split('\0');
    if (type === 'Q') {
      counts.roundTrips++;
      this.connection.pending.push({ texts: [this.count(counts, strings()[0] ?? '')], at: performance.now() });
    } else if (type === 'P') {
      const [name = '', text = ''] = strings();
      this.prepared.set(name, text);
    } else if (type === 'B') {
      const [portal = '', statement = ''] = strings();
      this.portals.set(portal, this.prepared.get(statement) ?? '(unknown prepared statement)');
    } else if (type === 'E') {
      this.batch.push(this.count(counts, this.portals.get(strings()[0] ?? '') ?? '(unknown portal)'));
    } else if (type === 'S') {
      counts.roundTrips++;
      this.connection.pending.push({ texts: this.batch, at: performance.now() });
      this.batch = [];
    }
  }

  private count(counts: WireCounts, text: string): string {
    counts.statements++;
    const key = normalizeStatement(text);
    counts.byText.set(key, (counts.byText.get(key) ?? 0) + 1);
    return key;
  }
}

/** Reads one connection's backend messages, ending the oldest round trip in flight at each `ReadyForQuery`. */
class BackendReader {
  private buffer: Buffer = Buffer.alloc(0);

  constructor(
    private readonly counts: () => WireCounts,
    private readonly connection: Connection,
  ) {}

  feed(chunk: Buffer): void {
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
    for (;;) {
      if (this.connection.negotiations > 0) {
        if (this.buffer.length < 1) return;
        this.connection.negotiations--;
        this.buffer = this.buffer.subarray(1);
        continue;
      }
      if (this.buffer.length < 5) return;
      const length = this.buffer.readInt32BE(1);
      if (this.buffer.length < 1 + length) return;
      if (this.buffer[0] === 0x5a) this.readyForQuery();
      this.buffer = this.buffer.subarray(1 + length);
    }
  }

  /** The start-up's own `ReadyForQuery` finds nothing in flight. */
  private readyForQuery(): void {
    const done = this.connection.pending.shift();
    if (done === undefined) return;
    const ms = performance.now() - done.at;
    const counts = this.counts();
    counts.waitMs += ms;
    for (const text of done.texts) counts.msByText.set(text, (counts.msByText.get(text) ?? 0) + ms / done.texts.length);
  }
}

/** A counting proxy to `target`; `url(databaseUrl)` points a connection string at it. */
export class PgWireCounter {
  private counts = emptyCounts();
  private readonly sockets = new Set<Socket>();
  private server: Server | undefined;
  private port = 0;

  constructor(private readonly target: { host: string; port: number }) {}

  async start(): Promise<void> {
    this.server = createServer((client) => {
      const upstream = connect(this.target.port, this.target.host);
      const connection: Connection = { pending: [], negotiations: 0 };
      const reader = new FrontendReader(() => this.counts, connection);
      const answers = new BackendReader(() => this.counts, connection);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        socket.on('error', () => {});
      }
      client.on('data', (chunk: Buffer) => reader.feed(chunk));
      upstream.on('data', (chunk: Buffer) => answers.feed(chunk));
      client.pipe(upstream);
      upstream.pipe(client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as { port: number }).port;
  }

  /** `databaseUrl` with its host and port replaced by this proxy's. */
  url(databaseUrl: string): string {
    const url = new URL(databaseUrl);
    url.hostname = '127.0.0.1';
    url.port = String(this.port);
    return url.toString();
  }

  /** The counts since the last `take` (or the start), and a fresh count from now. */
  take(): WireCounts {
    const taken = this.counts;
    this.counts = emptyCounts();
    return taken;
  }

  async stop(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise((resolve) => this.server?.close(resolve));
  }
}
