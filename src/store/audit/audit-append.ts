import { CompiledQuery, type DatabaseConnection } from 'kysely';
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
 * - PostgreSQL: one statement too (`POSTGRES_APPEND`): it locks the head's row, hashes the entry in
 *   SQL with the database's `sha256`, inserts it and moves the head. The row lock queues concurrent
 *   appenders until this transaction ends, and the head they then read is the one it leaves.
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

/** The draft's columns, in the order both appends bind them. */
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

/** A value as JSON text in SQL, the way `JSON.stringify` writes it (`null` for SQL NULL). */
const json = (value: string) => `coalesce(to_json(${value})::text, 'null')`;

/**
 * The entry's canonical form (`auditHash`, src/model/audit/audit-hash.ts) written in SQL: a JSON array
 * without spaces, strings escaped as `JSON.stringify` escapes them (`to_json` escapes the quote, the
 * backslash and control characters as it does, and leaves the rest as UTF-8), the status a bare integer.
 */
const CANONICAL = `'[' || ${['e.at', 'e.token_id', 'e.who', 'e.address', 'e.action', 'e.session_id', 'e.targets'].map(json).join(` || ',' || `)} || ',' || e.status::text || ']'`;

/**
 * One statement: the head's row is read under `FOR UPDATE` (its lock queues concurrent appenders until
 * this transaction ends, and the head an appender then reads is the one this transaction left), the
 * entry's time is read from the clock once that lock is held (a CTE of its own, computed once, after
 * the locked read: the time stored and the time hashed are the same), the entry is hashed in SQL
 * (`sha256` of the predecessor's hash, a newline and the canonical form, as `auditHash` does),
 * inserted, and the head moved to it.
 */
const POSTGRES_APPEND = `with head as (
    select h.seq + 1 as seq, h.hash as prev_hash,
      $1::text as token_id, $2::text as who, $3::text as address, $4::text as action, $5::text as session_id, $6::text as targets, $7::int as status
    from audit_head h where h.id = 1 for update
  ), e as (
    select head.*, to_char(clock_timestamp() at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as at from head
  ), hashed as (
    select e.*, encode(sha256(convert_to(e.prev_hash || E'\\n' || ${CANONICAL}, 'UTF8')), 'hex') as hash from e
  ), entry as (
    insert into audit_log ${COLUMNS}
      select seq, at, token_id, who, address, action, session_id, targets, status, prev_hash, hash from hashed
  )
  update audit_head set seq = hashed.seq, hash = hashed.hash from hashed where audit_head.id = 1`;

async function appendOnPostgres(connection: DatabaseConnection, draft: AuditDraft): Promise<void> {
  const result = await connection.executeQuery(CompiledQuery.raw(POSTGRES_APPEND, draftValues(draft)));
  if (result.numAffectedRows !== 1n) throw new Error(MISSING_HEAD);
}

interface Appender {
  append(connection: DatabaseConnection, draft: AuditDraft): Promise<void>;
  readonly oneStatement: boolean;
}

const APPENDERS: Readonly<Record<StoreDialect, Appender>> = {
  sqlite: { append: appendOnSqlite, oneStatement: true },
  postgres: { append: appendOnPostgres, oneStatement: true },
};
