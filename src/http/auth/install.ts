import type { FastifyInstance, HTTPMethods, RouteOptions } from 'fastify';
import { ScenaristError } from '../../errors.js';
import type { Services } from '../services.js';
import '../../auth/fastify-types.js';
import { withSecurity } from './openapi.js';
import { identifyToken, requireToken, type GuardDependencies } from '../../auth/request-guard.js';
import { routeAccess, type RouteAccess } from '../../auth/route-access.js';
import { TokenVerifier } from '../../auth/token-verifier.js';
import { TokensRepository } from '../../store/tokens-repository.js';

/** A route as the guard saw it when it was registered. */
export interface GuardedRoute {
  readonly method: HTTPMethods;
  readonly url: string;
  readonly access: RouteAccess;
}

const guardedByApp = new WeakMap<FastifyInstance, GuardedRoute[]>();

/** Every route registered after `installAuth`, with how it is guarded (for tests and diagnostics). */
export function guardedRoutes(app: FastifyInstance): readonly GuardedRoute[] {
  return guardedByApp.get(app) ?? [];
}

/**
 * Authentication for every route registered after this call, decided per route from the route
 * itself (`route-access.ts`), so routes added later are covered without being listed anywhere.
 * With auth `none` no hook is added at all; the OpenAPI document describes the scheme either way.
 */
export function installAuth(app: FastifyInstance, services: Services): void {
  const { settings, sessions, store } = services;
  const prefixes = [...new Set(['', settings.prefix])];
  const seen: GuardedRoute[] = [];
  guardedByApp.set(app, seen);

  let deps: GuardDependencies | undefined;
  if (settings.auth === 'token') {
    const verifier = new TokenVerifier(new TokensRepository(store.db), {
      onFlushError: (err) => app.log.warn({ err }, 'could not record when API tokens were last used'),
    });
    deps = {
      verifier,
      resolveSessionId: (ref) =>
        sessions.resolve(ref).then(
          (s) => s.id,
          (err: unknown) => {
            if (err instanceof ScenaristError && err.code === 'SESSION_NOT_FOUND') return undefined;
            throw err;
          },
        ),
    };
    app.decorateRequest('principal', null);
    app.addHook('onClose', async () => verifier.close());
  }

  app.addHook('onRoute', (route: RouteOptions) => {
    const access = routeAccess(route, prefixes);
    for (const method of [route.method].flat()) seen.push({ method, url: route.url, access });
    if (access.token === 'required') route.schema = withSecurity(route.schema);
    if (deps === undefined || access.token === 'none') return;
    const hook = access.token === 'required' ? requireToken(access, deps) : identifyToken(deps);
    // First among the route's own hooks: nothing of the route runs for a refused request.
    route.onRequest = [hook, ...[route.onRequest ?? []].flat()];
  });
}
