import {
  PostgresDialect,
  type CompiledQuery,
  type DatabaseConnection,
  type Driver,
  type QueryCompiler,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';

/**
 * PostgreSQL errors that mean the connection itself is gone (the server terminated the backend, a
 * restart, a network cut), not that the statement failed: class 08 (connection exception), 57P01..03
 * (admin/crash shutdown, cannot connect now), and pg's own socket errors.
 */
export function isBrokenConnection(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string' && (code.startsWith('08') || ['57P01', '57P02', '57P03', 'ECONNRESET', 'EPIPE'].includes(code))) return true;
  const message = (err as { message?: unknown }).message;
  return typeof message === 'string' && /Connection terminated|not queryable|Client was closed/i.test(message);
}

const isRead = (query: CompiledQuery) => query.query.kind === 'SelectQueryNode';

/** A pooled connection that runs a read once more, on a fresh connection, when its own has died. */
class ReadRetryingConnection implements DatabaseConnection {
  inTransaction = false;

  constructor(
    readonly inner: DatabaseConnection,
    private readonly driver: Driver,
  ) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    try {
      return await this.inner.executeQuery<R>(query);
    } catch (err) {
      // Only a SELECT outside a transaction is safe to repeat: it changes nothing, and no other
      // statement of a transaction depends on the dead connection.
      if (this.inTransaction || !isRead(query) || !isBrokenConnection(err)) throw err;
      const fresh = await this.driver.acquireConnection();
      try {
        return await fresh.executeQuery<R>(query);
      } finally {
        await this.driver.releaseConnection(fresh);
      }
    }
  }

  streamQuery<R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    return this.inner.streamQuery<R>(query, chunkSize);
  }
}

const unwrap = (connection: DatabaseConnection) => (connection as ReadRetryingConnection).inner;

/** Forwards to the pg driver, handing out connections that retry a read once on a broken connection. */
class ReadRetryingDriver implements Driver {
  constructor(private readonly inner: Driver) {}

  init(): Promise<void> {
    return this.inner.init();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    return new ReadRetryingConnection(await this.inner.acquireConnection(), this.inner);
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    (connection as ReadRetryingConnection).inTransaction = true;
    await this.inner.beginTransaction(unwrap(connection), settings);
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    try {
      await this.inner.commitTransaction(unwrap(connection));
    } finally {
      (connection as ReadRetryingConnection).inTransaction = false;
    }
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    try {
      await this.inner.rollbackTransaction(unwrap(connection));
    } finally {
      (connection as ReadRetryingConnection).inTransaction = false;
    }
  }

  async savepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']): Promise<void> {
    await this.inner.savepoint?.(unwrap(connection), name, compile);
  }

  async rollbackToSavepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']): Promise<void> {
    await this.inner.rollbackToSavepoint?.(unwrap(connection), name, compile);
  }

  async releaseSavepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']): Promise<void> {
    await this.inner.releaseSavepoint?.(unwrap(connection), name, compile);
  }

  releaseConnection(connection: DatabaseConnection): Promise<void> {
    return this.inner.releaseConnection(unwrap(connection));
  }

  destroy(): Promise<void> {
    return this.inner.destroy();
  }
}

/**
 * The PostgreSQL dialect with one retry of a read whose pooled connection turns out to be dead
 * (`pg_terminate_backend`, a failover, an idle connection cut by a firewall): a status poll then
 * answers from a fresh connection instead of a 500. Writes are never repeated.
 */
export class ReadRetryingPostgresDialect extends PostgresDialect {
  override createDriver(): Driver {
    return new ReadRetryingDriver(super.createDriver());
  }
}
