import type { FastifyReply, FastifyRequest } from 'fastify';
import type { RouteAccess } from './route-access.js';
import { scopeAllows } from './scopes.js';
import type { TokenVerifier } from './token-verifier.js';
import { errors } from '../error-factories.js';

export interface GuardDependencies {
  readonly verifier: TokenVerifier;
  /** The id of the session a `{sid}` names (id or display name), or undefined when none does. */
  resolveSessionId(ref: string): Promise<string | undefined>;
}

type Hook = (request: FastifyRequest, reply: FastifyReply) => Promise<void>;

const CHALLENGE = 'Bearer realm="scenarist"';
const BEARER = /^Bearer +(\S+) *$/i;

/**
 * The `onRequest` hook of a protected route: 401 without a valid token, 403 when its scope or its
 * session does not reach the route. Runs before the body is read, so a refused upload costs nothing.
 */
export function requireToken(access: RouteAccess, deps: GuardDependencies): Hook {
  return async (request, reply) => {
    const token = presentedToken(request, reply, access.queryToken);
    const principal = await deps.verifier.verify(token);
    if (principal === null) {
      reply.header('www-authenticate', `${CHALLENGE}, error="invalid_token"`);
      throw errors.tokenInvalid();
    }
    // Known before the scope and session checks, so a refused request is recorded as the token that sent it.
    request.principal = principal;
    if (!scopeAllows(principal.scope, access.scope)) {
      reply.header('www-authenticate', `${CHALLENGE}, error="insufficient_scope", scope="${access.scope}"`);
      throw errors.tokenScopeInsufficient(access.scope, principal.scope);
    }
    if (principal.sessionId !== null) await checkBoundSession(principal.sessionId, access, request.params, deps);
  };
}

/** The hook of a public route that still wants to know who asks (`/health` lists visible sessions). */
export function identifyToken(deps: GuardDependencies): Hook {
  return async (request) => {
    const token = bearerToken(request.headers.authorization);
    request.principal = token === undefined ? null : await deps.verifier.verify(token);
  };
}

async function checkBoundSession(bound: string, access: RouteAccess, params: unknown, deps: GuardDependencies): Promise<void> {
  if (access.boundTokens === 'filtered') return;
  if (access.boundTokens === 'refused') {
    throw errors.boundTokenOnSharedRoute();
  }
  const sid = (params as Record<string, unknown> | undefined)?.sid;
  // The id itself needs no lookup (the status poll path); a display name is resolved.
  if (typeof sid === 'string' && (sid.toLowerCase() === bound || (await deps.resolveSessionId(sid)) === bound)) return;
  // The same answer whether that session exists or not: a bound token learns nothing about others.
  throw errors.boundTokenOtherSession();
}

function presentedToken(request: FastifyRequest, reply: FastifyReply, queryToken: boolean): string {
  const header = request.headers.authorization;
  if (header !== undefined) {
    const token = bearerToken(header);
    if (token !== undefined) return token;
    reply.header('www-authenticate', `${CHALLENGE}, error="invalid_request"`);
    throw errors.authorizationNotBearer();
  }
  if (queryToken) {
    const fromQuery = (request.query as Record<string, unknown> | undefined)?.access_token;
    if (typeof fromQuery === 'string' && fromQuery !== '') {
      redactQueryToken(request);
      return fromQuery;
    }
  }
  reply.header('www-authenticate', CHALLENGE);
  throw errors.tokenMissing(queryToken);
}

function bearerToken(header: string | undefined): string | undefined {
  return header === undefined ? undefined : BEARER.exec(header)?.[1];
}

/**
 * The request line is logged with its query; the secret must not be. The query is already parsed
 * (routing happened), so rewriting the raw URL changes only what is logged.
 */
function redactQueryToken(request: FastifyRequest): void {
  const url = request.raw.url;
  if (url !== undefined) request.raw.url = url.replace(/([?&]access_token=)[^&#]*/g, '$1[redacted]');
}
