import { CompiledQuery, type DatabaseConnection } from 'kysely';
import { auditHash } from '../../model/audit/audit-hash.js';
import type { AuditDraft } from '../../model/audit/audit-scope.js';
import type { StoreDialect } from '../dialect.js';
import { AUDIT_HASH_FUNCTION } from '../sqlite/audit-hash-function.js';

/**
 * Appends one entry to the audit chain on a connection inside an open transaction (on SQLite also
 * alone: see `appendsInOneStatement`). Every entry follows the one committed before it, and its time
 * is the database's clock when it takes its place.
 *
 * Written as raw SQL on the driver's connection (this runs inside the driver, below Kysely's
 * builders). How each dialect keeps the chain linear:
 * - SQLite: one statement. It reads the head, hashes the entry in SQL (`audit_hash`, the chain's hash
 *   registered on every connection, `src/store/sqlite/audit-hash-function.ts`) and inserts it; the
 *   head follows by trigger (migration 0021). One writer holds the file at a time, so no other append
 *   comes between the read of the head and its move.
 * - PostgreSQL: the head row is updated first: its row lock queues concurrent appenders until this
 *   transaction ends, and the head they then read is the one this transaction leaves. The hash is
 *   computed here, then the insert and the head's new hash are one statement, as the store combines
 *   writes elsewhere.
 */
export function appendAuditEntry(connection: DatabaseConnection, dialect: StoreDialect, draft: AuditDraft): Promise<void> {
  return APPENDERS[dialect].append(connection, draft);
}

/** Whether the append is one statement, atomic without a transaction around it (an entry written alone). */
export function appendsInOneStatement(dialect: StoreDialect): boolean {
  return APPENDERS[dialect].oneStatement;
}

const COLUMNS = '(seq, at, token_id, who, address, action, session_id, targets, status, prev_hash, hash)';

const MISSING_HEAD = 'the audit chain has no head row (migration 0017-audit did not run)';

/** The draft's columns, in the order the SQLite append binds them. */
function draftValues(draft: AuditDraft): unknown[] {
  return [draft.tokenId, draft.who, draft.address, draft.action, draft.sessionId, JSON.stringify(draft.targets), draft.status];
}

// The entry's time is read once (`e.at`) and both stored and hashed.
const SQLITE_APPEND = `insert into audit_log ${COLUMNS}
   select head.seq + 1, e.at, e.token_id, e.who, e.address, e.action, e.session_id, e.targets, e.status, head.hash,
     ${AUDIT_HASH_FUNCTION}(head.hash, e.at, e.token_id, e.who, e.address, e.action, e.session_id, e.targets, e.status)
   from audit_head head,
     (select strftime('%Y-%m-%dT%H:%M:%fZ', 'now') as at, ? as token_id, ? as who, ? as address, ? as action,
       ? as session_id, ? as targets, ? as status) e
   where head.id = 1`;

async function appendOnSqlite(connection: DatabaseConnection, draft: AuditDraft): Promise<void> {
  const result = await connection.executeQuery(CompiledQuery.raw(SQLITE_APPEND, draftValues(draft)));
  if (result.numAffectedRows !== 1n) throw new Error(MISSING_HEAD);
}

const POSTGRES_TAKE_PLACE = `update audit_head set seq = seq + 1 where id = 1
  returning seq, hash, to_char(clock_timestamp() at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as at`;
const POSTGRES_INSERT = `with entry as (insert into audit_log ${COLUMNS} values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11))
  update audit_head set hash = $11 where id = 1`;

async function appendOnPostgres(connection: DatabaseConnection, draft: AuditDraft): Promise<void> {
  const { rows } = await connection.executeQuery<{ seq: number | string; hash: string; at: string }>(CompiledQuery.raw(POSTGRES_TAKE_PLACE, []));
  const head = rows[0];
  if (head === undefined) throw new Error(MISSING_HEAD);
  const targets = JSON.stringify(draft.targets);
  const { tokenId, who, address, action, sessionId, status } = draft;
  const hash = auditHash(head.hash, { at: head.at, tokenId, who, address, action, sessionId, targets, status });
  const values = [Number(head.seq), head.at, tokenId, who, address, action, sessionId, targets, status, head.hash, hash];
  await connection.executeQuery(CompiledQuery.raw(POSTGRES_INSERT, values));
}

interface Appender {
  append(connection: DatabaseConnection, draft: AuditDraft): Promise<void>;
  readonly oneStatement: boolean;
}

const APPENDERS: Readonly<Record<StoreDialect, Appender>> = {
  sqlite: { append: appendOnSqlite, oneStatement: true },
  postgres: { append: appendOnPostgres, oneStatement: false },
};
