import type { SessionList } from '../sessions/service.js';
import type { RequestPrincipal } from './principal.js';

/**
 * The part of a session list a request may see: all of it without authentication or with a token for
 * every session, only its session for a session-bound token, none for a request without a token.
 */
export function visibleSessions(principal: RequestPrincipal, list: SessionList): SessionList {
  if (principal === undefined) return list;
  if (principal === null) return { sessions: [], default: list.default };
  const bound = principal.sessionId;
  if (bound === null) return list;
  return { sessions: list.sessions.filter((s) => s.id === bound), default: bound };
}
