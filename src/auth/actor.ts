import { LOCAL_ACTOR, type Actor } from '../model/actor.js';
import type { RequestPrincipal } from './principal.js';

/**
 * Who a request acts for, as decisions record it: `local` when authentication is off; else the
 * verified token. A route that records one requires a token, so a request reaching it with auth on
 * always has one (null here would be a route declared public by mistake: refuse to guess).
 */
export function actorOf(principal: RequestPrincipal): Actor {
  if (principal === undefined) return LOCAL_ACTOR;
  if (principal === null) throw new Error('a decision was recorded for a request without a token');
  return { id: principal.tokenId, name: principal.name };
}
