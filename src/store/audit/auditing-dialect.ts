import {
  CompiledQuery,
  type DatabaseConnection,
  type DatabaseIntrospector,
  type Dialect,
  type DialectAdapter,
  type Driver,
  type Kysely,
  type QueryCompiler,
  type QueryResult,
  type TransactionSettings,
} from 'kysely';
import { activeAuditScope, type AuditDraft, type AuditScope } from '../../model/audit/audit-scope.js';
import type { StoreDialect } from '../dialect.js';
import { appendAuditEntry, appendsInOneStatement } from './audit-append.js';

/**
 * The store's audit hook. Every write of the store goes through this driver; when it runs inside
 * audited work (`runAudited`, `src/model/audit/audit-scope.ts`) and changes a row, the work's audit
 * entry is appended on the same connection before the commit:
 * - in a transaction (`db.transaction()`), at its commit, when one of its statements changed a row;
 * - for a statement outside a transaction, by making it one: `begin`, the statement, the entry, `commit`.
 * So the entry commits exactly when the write does, and the write sites know nothing of it. Only the
 * first write of the work carries the entry; a statement that changed nothing leaves it for the next.
 */
export class AuditingDialect implements Dialect {
  private driver: AuditingDriver | undefined;

  constructor(
    private readonly inner: Dialect,
    private readonly dialect: StoreDialect,
  ) {}

  createDriver(): Driver {
    this.driver = new AuditingDriver(this.inner.createDriver(), this.dialect);
    return this.driver;
  }

  /** Writes one entry in a transaction of its own, for work that changed nothing (a refused request). */
  appendAlone(draft: AuditDraft): Promise<void> {
    if (this.driver === undefined) throw new Error('the audited store has no driver yet');
    return this.driver.appendAlone(draft);
  }

  createQueryCompiler(): QueryCompiler {
    return this.inner.createQueryCompiler();
  }

  createAdapter(): DialectAdapter {
    return this.inner.createAdapter();
  }

  createIntrospector(db: Kysely<unknown>): DatabaseIntrospector {
    return this.inner.createIntrospector(db);
  }
}

const WRITE_KINDS = new Set(['InsertQueryNode', 'UpdateQueryNode', 'DeleteQueryNode', 'MergeQueryNode']);
const RAW_WRITE = /^\s*(insert|update|delete|replace)\b/i;
const RAW_CTE_WRITE = /^\s*with\b[\s\S]*\b(insert\s+into|delete\s+from|update\s+\S+\s+set)\b/i;

/** Whether a statement may change rows (a raw statement is told by its first words). */
function isWrite(query: CompiledQuery): boolean {
  const kind = query.query.kind;
  if (WRITE_KINDS.has(kind)) return true;
  return kind === 'RawNode' && (RAW_WRITE.test(query.sql) || RAW_CTE_WRITE.test(query.sql));
}

/** Whether a write changed a row (SQLite answers rows, not a count, for a statement with `returning`). */
function changedRows(result: QueryResult<unknown>): boolean {
  return (result.numAffectedRows ?? 0n) > 0n || result.rows.length > 0;
}

const BEGIN = CompiledQuery.raw('begin');
const COMMIT = CompiledQuery.raw('commit');
const ROLLBACK = CompiledQuery.raw('rollback');

class AuditedConnection implements DatabaseConnection {
  inTransaction = false;
  /** In a transaction: a statement of it changed a row. */
  wrote = false;

  constructor(
    readonly inner: DatabaseConnection,
    private readonly dialect: StoreDialect,
  ) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    if (this.inTransaction) {
      const result = await this.inner.executeQuery<R>(query);
      if (!this.wrote && isWrite(query) && changedRows(result)) this.wrote = true;
      return result;
    }
    const scope = isWrite(query) ? activeAuditScope() : undefined;
    const draft = scope?.claim();
    if (scope === undefined || draft === undefined) return this.inner.executeQuery<R>(query);
    return this.writeWithEntry(query, scope, draft);
  }

  streamQuery<R>(query: CompiledQuery, chunkSize?: number): AsyncIterableIterator<QueryResult<R>> {
    return this.inner.streamQuery<R>(query, chunkSize);
  }

  private async writeWithEntry<R>(query: CompiledQuery, scope: AuditScope, draft: AuditDraft): Promise<QueryResult<R>> {
    await this.inner.executeQuery(BEGIN);
    let audited = false;
    try {
      const result = await this.inner.executeQuery<R>(query);
      if (changedRows(result)) {
        await appendAuditEntry(this.inner, this.dialect, draft);
        audited = true;
      }
      await this.inner.executeQuery(COMMIT);
      scope.settle(audited);
      return result;
    } catch (err) {
      scope.settle(false);
      await this.inner.executeQuery(ROLLBACK).catch(() => undefined);
      throw err;
    }
  }
}

class AuditingDriver implements Driver {
  /** One wrapper per driver connection (drivers hand out the same connection objects again). */
  private readonly wrappers = new WeakMap<DatabaseConnection, AuditedConnection>();

  constructor(
    private readonly inner: Driver,
    private readonly dialect: StoreDialect,
  ) {}

  init(): Promise<void> {
    return this.inner.init();
  }

  async acquireConnection(): Promise<DatabaseConnection> {
    const connection = await this.inner.acquireConnection();
    let wrapper = this.wrappers.get(connection);
    if (wrapper === undefined) {
      wrapper = new AuditedConnection(connection, this.dialect);
      this.wrappers.set(connection, wrapper);
    }
    return wrapper;
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    const audited = connection as AuditedConnection;
    await this.inner.beginTransaction(audited.inner, settings);
    audited.inTransaction = true;
    audited.wrote = false;
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    const audited = connection as AuditedConnection;
    const scope = activeAuditScope();
    const draft = audited.wrote ? scope?.claim() : undefined;
    try {
      if (draft !== undefined) await appendAuditEntry(audited.inner, this.dialect, draft);
      await this.inner.commitTransaction(audited.inner);
    } catch (err) {
      // Kysely rolls the transaction back after a failed commit; the next write carries the entry.
      if (draft !== undefined) scope?.settle(false);
      throw err;
    } finally {
      audited.inTransaction = false;
    }
    if (draft !== undefined) scope?.settle(true);
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    const audited = connection as AuditedConnection;
    try {
      await this.inner.rollbackTransaction(audited.inner);
    } finally {
      audited.inTransaction = false;
    }
  }

  async savepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']): Promise<void> {
    await this.inner.savepoint?.((connection as AuditedConnection).inner, name, compile);
  }

  async rollbackToSavepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']): Promise<void> {
    await this.inner.rollbackToSavepoint?.((connection as AuditedConnection).inner, name, compile);
  }

  async releaseSavepoint(connection: DatabaseConnection, name: string, compile: QueryCompiler['compileQuery']): Promise<void> {
    await this.inner.releaseSavepoint?.((connection as AuditedConnection).inner, name, compile);
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    await this.inner.releaseConnection((connection as AuditedConnection).inner);
  }

  destroy(): Promise<void> {
    return this.inner.destroy();
  }

  async appendAlone(draft: AuditDraft): Promise<void> {
    const connection = (await this.acquireConnection()) as AuditedConnection;
    try {
      // One statement commits alone, atomically; more need a transaction around them.
      if (appendsInOneStatement(this.dialect)) {
        await appendAuditEntry(connection.inner, this.dialect, draft);
        return;
      }
      await connection.inner.executeQuery(BEGIN);
      try {
        await appendAuditEntry(connection.inner, this.dialect, draft);
        await connection.inner.executeQuery(COMMIT);
      } catch (err) {
        await connection.inner.executeQuery(ROLLBACK).catch(() => undefined);
        throw err;
      }
    } finally {
      await this.releaseConnection(connection);
    }
  }
}
