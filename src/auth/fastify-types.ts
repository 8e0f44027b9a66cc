import type { TokenPrincipal } from './principal.js';
import type { Scope } from '../model/token-scopes.js';

/** What routes may declare for authentication, and what a request carries once authenticated. */
declare module 'fastify' {
  interface FastifyContextConfig {
    /** Least token scope the route needs (default: `read` for GET/HEAD, `run` otherwise). */
    scope?: Scope;
    /** `false`: public. `'optional'`: public, and a valid token if sent is identified. */
    auth?: false | 'optional';
    /** Session-bound tokens: `filtered` lets them in (the route narrows its answer); `refused` never. */
    boundTokens?: 'filtered' | 'refused';
    /** Also accept `?access_token=` (for EventSource clients). */
    queryToken?: boolean;
  }

  interface FastifyRequest {
    /**
     * Absent when authentication is off; null without a valid token (public routes only); else the
     * verified token. Read it through `visibleSessions` and friends, not directly.
     */
    principal?: TokenPrincipal | null;
  }
}
