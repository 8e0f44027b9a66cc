import type BetterSqlite3 from 'better-sqlite3';
import { auditHash } from '../../model/audit/audit-hash.js';

/** The name the audit append calls the chain's hash by in SQLite statements (`audit-append.ts`). */
export const AUDIT_HASH_FUNCTION = 'audit_hash';

/**
 * Registers the audit chain's hash as a SQL function on a SQLite connection, so an entry is hashed
 * inside the one statement that appends it: `audit_hash(prev_hash, at, token_id, who, address,
 * action, session_id, targets, status)`. It is `auditHash` itself, called with the values SQLite
 * hands over, so what it writes is what `scenarist audit verify` recomputes in JavaScript. Functions
 * live on a connection, not in the file: every connection that may append registers it when it opens;
 * a tool without it (the sqlite3 shell) can read the trail but not append to it.
 */
export function registerAuditHash(sqlite: BetterSqlite3.Database): void {
  sqlite.function(
    AUDIT_HASH_FUNCTION,
    { deterministic: true },
    (prevHash: unknown, at: unknown, tokenId: unknown, who: unknown, address: unknown, action: unknown, sessionId: unknown, targets: unknown, status: unknown) =>
      auditHash(text(prevHash), {
        at: text(at),
        tokenId: textOrNull(tokenId),
        who: text(who),
        address: textOrNull(address),
        action: text(action),
        sessionId: textOrNull(sessionId),
        targets: text(targets),
        status: integer(status),
      }),
  );
}

/** The append binds text to these arguments; anything else is a fault of the statement, not data to hash. */
function text(value: unknown): string {
  if (typeof value !== 'string') throw new TypeError(`${AUDIT_HASH_FUNCTION}: expected text, got ${typeof value}`);
  return value;
}

function textOrNull(value: unknown): string | null {
  return value === null ? null : text(value);
}

function integer(value: unknown): number {
  if (typeof value !== 'number' || !Number.isInteger(value)) throw new TypeError(`${AUDIT_HASH_FUNCTION}: expected an integer status, got ${String(value)}`);
  return value;
}
