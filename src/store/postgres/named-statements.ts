import type { PostgresCursor, PostgresPool, PostgresPoolClient, PostgresQueryResult } from 'kysely';
import type pg from 'pg';

/** A statement becomes named once it has run this many times: the hot paths repeat theirs at once. */
const NAMED_FROM_USE = 3;
/** Names given at most per process; each connection keeps a parsed statement per name it ran. */
const MAX_NAMES = 500;
/** Statement texts counted at most while they wait for their third use. */
const MAX_COUNTED = 5_000;

/**
 * Names for the statements this process runs again and again. PostgreSQL parses and plans an unnamed
 * statement at every execution; a named one is parsed once per connection and then only bound and run
 * (a run's update took 0.44-0.49 ms unnamed, 0.33-0.35 ms named, on this kind of machine). Only
 * statements with parameters are named (transaction control and DDL stay plain), and the names are
 * bounded, since statement texts vary with list lengths. One name always stands for one text.
 */
export class StatementNames {
  private readonly names = new Map<string, string>();
  private readonly uses = new Map<string, number>();

  /** The name to run `text` under, once it has earned one; undefined while it runs unnamed. */
  nameOf(text: string): string | undefined {
    const known = this.names.get(text);
    if (known !== undefined || this.names.size >= MAX_NAMES) return known;
    const uses = (this.uses.get(text) ?? 0) + 1;
    if (uses < NAMED_FROM_USE) {
      if (this.uses.size < MAX_COUNTED) this.uses.set(text, uses);
      return undefined;
    }
    this.uses.delete(text);
    const name = `scenarist_${this.names.size}`;
    this.names.set(text, name);
    return name;
  }
}

/**
 * A pg pool as Kysely sees it, whose clients run repeated statements as named ones. It wraps the
 * pool and its clients (the driver itself is left as it is): Kysely calls `query(text, values)` and
 * `query(cursor)`; the first form runs under the text's name once it has one.
 */
export class NamingPool implements PostgresPool {
  private readonly clients = new WeakMap<pg.PoolClient, NamingClient>();

  constructor(
    private readonly pool: pg.Pool,
    private readonly names: StatementNames = new StatementNames(),
  ) {}

  async connect(): Promise<PostgresPoolClient> {
    const client = await this.pool.connect();
    // One wrapper per pooled client: Kysely keeps its connection object per client it is given.
    let named = this.clients.get(client);
    if (named === undefined) this.clients.set(client, (named = new NamingClient(client, this.names)));
    return named;
  }

  end(): Promise<void> {
    return this.pool.end();
  }
}

class NamingClient implements PostgresPoolClient {
  constructor(
    private readonly client: pg.PoolClient,
    private readonly names: StatementNames,
  ) {}

  query<R>(sql: string, parameters: readonly unknown[]): Promise<PostgresQueryResult<R>>;
  query<R>(cursor: PostgresCursor<R>): PostgresCursor<R>;
  query<R>(what: string | PostgresCursor<R>, parameters?: readonly unknown[]): Promise<PostgresQueryResult<R>> | PostgresCursor<R> {
    if (typeof what !== 'string') return this.client.query(what as unknown as pg.Submittable) as unknown as PostgresCursor<R>;
    // Kysely hands each call a fresh array of its own: passed on as it is, not copied.
    const values = (parameters ?? []) as unknown[];
    const name = values.length > 0 ? this.names.nameOf(what) : undefined;
    const result = name === undefined ? this.client.query(what, values) : this.client.query({ name, text: what, values });
    return result as unknown as Promise<PostgresQueryResult<R>>;
  }

  release(): void {
    this.client.release();
  }
}
