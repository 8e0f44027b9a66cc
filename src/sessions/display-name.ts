import { invalidRequest } from '../errors.js';

/** A session id, in any letter case: what a `{sid}` path value is first taken for. */
export const SESSION_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const OUTER_WHITESPACE = /^\s|\s$/u;

/**
 * What a display name must be beyond the rules of every name (length, control characters: the route's
 * schema): it is also an alias in every `{sid}` position, so it must work as one. A name shaped like a
 * session id would be read as an id first (another session's, or none), and a name with outer whitespace
 * cannot be told apart in a list from the same name without it, and is lost by clients that trim.
 * Throws a 422 naming `field`.
 */
export function checkDisplayName(name: string, field: string): void {
  const message = SESSION_ID.test(name)
    ? 'must not be a session id (a UUID): in a path it would be taken for an id, not this name'
    : OUTER_WHITESPACE.test(name)
      ? 'must not start or end with whitespace'
      : undefined;
  if (message !== undefined) throw invalidRequest(`${field} ${message}`, [{ path: field, message }]);
}
