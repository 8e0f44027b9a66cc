import type { FastifyInstance, preHandlerHookHandler, RouteOptions } from 'fastify';
import { errors } from '../../error-factories.js';

/**
 * NUL characters: no stored name or id can contain one, and PostgreSQL text cannot hold one at all
 * (the query fails), so they are refused before the store, on both dialects alike.
 */

/** The name of the first path or query parameter holding a NUL character, if any. */
export function parameterWithNul(values: unknown): string | undefined {
  if (typeof values !== 'object' || values === null) return undefined;
  // for..in allocates nothing: this runs on every request, status polls included.
  for (const name in values) {
    const value: unknown = (values as Record<string, unknown>)[name];
    if (typeof value === 'string' ? value.includes('\u0000') : Array.isArray(value) && value.some((v) => typeof v === 'string' && v.includes('\u0000'))) {
      return name;
    }
  }
  return undefined;
}

/**
 * The dotted path of the first string (or key) holding NUL in a parsed JSON value, if any. Recursive:
 * the JSON parser refuses a body nested deeper than `MAX_BODY_DEPTH` before this ever sees it.
 */
export function pathOfNul(value: unknown, path = ''): string | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? path || 'body' : undefined;
  if (typeof value !== 'object' || value === null) return undefined;
  for (const [key, item] of Object.entries(value)) {
    const here = path === '' ? key : `${path}.${key}`;
    if (key.includes('\u0000')) return here;
    const found = pathOfNul(item, here);
    if (found !== undefined) return found;
  }
  return undefined;
}

/** After schema validation (a name with NUL is already a 422 there): any other JSON string with NUL is a 422 naming it. */
const refuseNulInBody: preHandlerHookHandler = (request, _reply, done) => {
  // A raw text body (from-json parses its own) is left to its route.
  if (typeof request.body !== 'object') return done();
  const path = pathOfNul(request.body);
  if (path === undefined) return done();
  done(errors.bodyStringWithNul(path));
};

/** Adds the body check to every route with a JSON body schema, and to no other (status polls pay nothing). */
export function refuseNulInJsonBodies(app: FastifyInstance): void {
  app.addHook('onRoute', (route: RouteOptions) => {
    if (route.schema?.body === undefined) return;
    const existing = route.preHandler === undefined ? [] : Array.isArray(route.preHandler) ? route.preHandler : [route.preHandler];
    route.preHandler = [refuseNulInBody, ...existing];
  });
}
