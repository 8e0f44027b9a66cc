import type { HTTPMethods } from 'fastify';
import type { Scope } from '../model/token-scopes.js';

/**
 * What a session-bound token may do on a route: `own-session` (the default for routes with `{sid}`):
 * only with its own session in `{sid}`; `filtered`: allowed, the route answers with the token's
 * session only (`GET /sessions`); `refused` (the default for routes without `{sid}`): never.
 */
export type BoundTokenPolicy = 'own-session' | 'filtered' | 'refused';

/** What a route may declare in its `config` (see `fastify-types.ts`). */
export interface RouteAuthConfig {
  /** Least scope needed; default `read` for GET/HEAD, `run` for every other method. */
  readonly scope?: Scope;
  /** `false`: no token needed. `'optional'`: no token needed, but a valid one is identified. */
  readonly auth?: false | 'optional';
  readonly boundTokens?: 'filtered' | 'refused';
  /** Also take the token from `?access_token=` (EventSource cannot send headers). */
  readonly queryToken?: boolean;
}

/** How one route is guarded, decided once when the route is registered. */
export interface RouteAccess {
  /** `required`: 401 without a valid token; `optional`/`none`: public (`optional` identifies a token). */
  readonly token: 'required' | 'optional' | 'none';
  readonly scope: Scope;
  readonly boundTokens: BoundTokenPolicy;
  readonly queryToken: boolean;
}

export interface RouteShape {
  readonly method: HTTPMethods | HTTPMethods[];
  readonly url: string;
  readonly config?: RouteAuthConfig | undefined;
}

/** Served to anyone under the root and under the prefix: probes, the API description, static UIs. */
const PUBLIC_FAMILIES = ['health', 'openapi.json', 'docs', 'ui'];
const READ_METHODS = new Set(['GET', 'HEAD']);

/**
 * The guard of a route, from the route itself: its methods, whether it has a `{sid}`, and what its
 * `config` declares. Everything not public needs a token, so routes added later are covered.
 */
export function routeAccess(route: RouteShape, prefixes: readonly string[]): RouteAccess {
  const methods = [route.method].flat().map((m) => m.toUpperCase());
  const config = route.config ?? {};
  const hasSession = /(^|\/):sid(\/|$)/.test(route.url);
  // CORS preflights (OPTIONS) carry no credentials by design; @fastify/cors answers them.
  const token =
    config.auth === 'optional'
      ? 'optional'
      : config.auth === false || isPublicPath(route.url, prefixes) || methods.every((m) => m === 'OPTIONS')
        ? 'none'
        : 'required';
  return {
    token,
    scope: config.scope ?? (methods.every((m) => READ_METHODS.has(m)) ? 'read' : 'run'),
    boundTokens: config.boundTokens ?? (hasSession ? 'own-session' : 'refused'),
    queryToken: config.queryToken ?? (methods.every((m) => READ_METHODS.has(m)) && route.url.endsWith('/events')),
  };
}

function isPublicPath(url: string, prefixes: readonly string[]): boolean {
  return prefixes.some((base) =>
    PUBLIC_FAMILIES.some((family) => url === `${base}/${family}` || url.startsWith(`${base}/${family}/`)),
  );
}
