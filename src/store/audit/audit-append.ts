import { CompiledQuery, type DatabaseConnection } from 'kysely';
import { auditHash } from '../../model/audit/audit-hash.js';
import type { AuditDraft } from '../../model/audit/audit-scope.js';
import type { StoreDialect } from '../dialect.js';

/**
 * Appends one entry to the audit chain on a connection inside an open transaction. The head row is
 * updated first: on PostgreSQL its row lock queues concurrent appenders until this transaction ends,
 * and the head they then read is the one this transaction leaves, so every entry follows the one
 * committed before it. The entry's time is the database's clock when it takes its place.
 *
 * Written as raw SQL on the driver's connection (this runs inside the driver, below Kysely's
 * builders); on PostgreSQL the insert and the head's new hash are one statement, as the store
 * combines writes elsewhere.
 */
export async function appendAuditEntry(connection: DatabaseConnection, dialect: StoreDialect, draft: AuditDraft): Promise<void> {
  const sqlOf = APPEND_SQL[dialect];
  const { rows } = await connection.executeQuery<{ seq: number | string; hash: string; at: string }>(CompiledQuery.raw(sqlOf.takePlace, []));
  const head = rows[0];
  if (head === undefined) throw new Error('the audit chain has no head row (migration 0017-audit did not run)');
  const seq = Number(head.seq);
  const targets = JSON.stringify(draft.targets);
  const content = { at: head.at, tokenId: draft.tokenId, who: draft.who, address: draft.address, action: draft.action, sessionId: draft.sessionId, targets, status: draft.status };
  const hash = auditHash(head.hash, content);
  const values = [seq, head.at, draft.tokenId, draft.who, draft.address, draft.action, draft.sessionId, targets, draft.status, head.hash, hash];
  await connection.executeQuery(CompiledQuery.raw(sqlOf.insert, values));
  if (sqlOf.moveHead !== undefined) await connection.executeQuery(CompiledQuery.raw(sqlOf.moveHead, [hash]));
}

const COLUMNS = '(seq, at, token_id, who, address, action, session_id, targets, status, prev_hash, hash)';

interface AppendSql {
  /** Bumps the head's seq and answers the new seq, the predecessor's hash and the database time. */
  readonly takePlace: string;
  /** Inserts the entry (on PostgreSQL also records its hash on the head). */
  readonly insert: string;
  /** Records the entry's hash on the head, where `insert` does not. */
  readonly moveHead?: string;
}

const APPEND_SQL: Readonly<Record<StoreDialect, AppendSql>> = {
  sqlite: {
    takePlace: `update audit_head set seq = seq + 1 where id = 1 returning seq, hash, strftime('%Y-%m-%dT%H:%M:%fZ', 'now') as at`,
    insert: `insert into audit_log ${COLUMNS} values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    moveHead: `update audit_head set hash = ? where id = 1`,
  },
  postgres: {
    takePlace: `update audit_head set seq = seq + 1 where id = 1
      returning seq, hash, to_char(clock_timestamp() at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as at`,
    insert: `with entry as (insert into audit_log ${COLUMNS} values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11))
      update audit_head set hash = $11 where id = 1`,
  },
};
