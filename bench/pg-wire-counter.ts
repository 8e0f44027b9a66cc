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
 */
import { createServer, connect, type Server, type Socket } from 'node:net';

export interface WireCounts {
  statements: number;
  roundTrips: number;
  /** Statement count per normalized text. */
  readonly byText: Map<string, number>;
}

const emptyCounts = (): WireCounts => ({ statements: 0, roundTrips: 0, byText: new Map() });

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

  constructor(private readonly counts: () => WireCounts) {}

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
      this.count(counts, strings()[0] ?? '');
    } else if (type === 'P') {
      const [name = '', text = ''] = strings();
      this.prepared.set(name, text);
    } else if (type === 'B') {
      const [portal = '', statement = ''] = strings();
      this.portals.set(portal, this.prepared.get(statement) ?? '(unknown prepared statement)');
    } else if (type === 'E') {
      this.count(counts, this.portals.get(strings()[0] ?? '') ?? '(unknown portal)');
    } else if (type === 'S') {
      counts.roundTrips++;
    }
  }

  private count(counts: WireCounts, text: string): void {
    counts.statements++;
    const key = normalizeStatement(text);
    counts.byText.set(key, (counts.byText.get(key) ?? 0) + 1);
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
      const reader = new FrontendReader(() => this.counts);
      for (const socket of [client, upstream]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        socket.on('error', () => {});
      }
      client.on('data', (chunk: Buffer) => reader.feed(chunk));
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
