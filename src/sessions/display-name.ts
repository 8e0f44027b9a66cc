import { errors } from '../error-factories.js';

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
  if (SESSION_ID.test(name)) throw errors.displayNameIsSessionId(field);
  if (OUTER_WHITESPACE.test(name)) throw errors.displayNameOuterWhitespace(field);
}
