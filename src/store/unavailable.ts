import { isBrokenConnection } from './postgres/read-retry.js';

/**
 * Node's socket errors on the way to a PostgreSQL server: nobody listens, the host or network cannot
 * be reached, the name does not resolve, the connection was cut or timed out.
 */
const NETWORK_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ECONNABORTED', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENETUNREACH', 'EHOSTDOWN', 'ENETDOWN', 'ENOTFOUND', 'EAI_AGAIN']);

/**
 * PostgreSQL errors of the server's state rather than of the statement: too many connections (53300),
 * out of disk or memory (53100, 53200), and a server starting or stopping (57P01..57P03, also in
 * `isBrokenConnection` with class 08, the connection exceptions).
 */
const POSTGRES_SERVER_CODES = new Set(['53000', '53100', '53200', '53300', '57P01', '57P02', '57P03']);

/** pg's own words for a pool that could not connect in time, or a client whose connection died. */
const POSTGRES_MESSAGES = /timeout exceeded when trying to connect|Connection terminated|Client has encountered a connection error|not queryable|Client was closed/i;

/**
 * SQLite result codes (extended ones share their prefix) that mean the file cannot be used now: another
 * process holds its lock beyond busy_timeout (BUSY, LOCKED), the disk or file system fails or is full
 * (IOERR, FULL, CANTOPEN), or the file was moved, deleted or made read-only under the process (READONLY).
 * A constraint or a malformed statement is a bug or bad input and keeps its own answer.
 */
const SQLITE_PREFIXES = ['SQLITE_BUSY', 'SQLITE_LOCKED', 'SQLITE_IOERR', 'SQLITE_FULL', 'SQLITE_CANTOPEN', 'SQLITE_READONLY'];

function codeOf(err: object): string | undefined {
  const code = (err as { code?: unknown }).code;
  return typeof code === 'string' ? code : undefined;
}

/**
 * Whether an error says the database cannot be reached or used at the moment (an outage a client
 * should retry later), not that this request or the service is at fault. Follows `cause` chains and
 * the members of an AggregateError (pg reports a refused connection to each address of a host so).
 */
export function isStoreUnavailable(err: unknown, depth = 0): boolean {
  if (typeof err !== 'object' || err === null || depth > 5) return false;
  const code = codeOf(err);
  if (code !== undefined) {
    if (NETWORK_CODES.has(code) || POSTGRES_SERVER_CODES.has(code)) return true;
    if (SQLITE_PREFIXES.some((prefix) => code === prefix || code.startsWith(`${prefix}_`))) return true;
  }
  if (isBrokenConnection(err)) return true;
  const message = (err as { message?: unknown }).message;
  if (typeof message === 'string' && POSTGRES_MESSAGES.test(message)) return true;
  if (err instanceof AggregateError && err.errors.some((inner) => isStoreUnavailable(inner, depth + 1))) return true;
  return isStoreUnavailable((err as { cause?: unknown }).cause, depth + 1);
}
