import type { FastifySchema } from 'fastify';
import { routeAccess, type RouteAuthConfig } from '../auth/route-access.js';
import { ERROR_CODES, type ErrorCode } from '../errors.js';

/**
 * The error codes a route can answer, declared once per route and read by both the OpenAPI document
 * (`x-error-codes`, and the error statuses it documents) and the error handler (which flags an answer
 * of a code its route did not declare). A route lists in `config.errors` what its own work can answer
 * (its services, the domain code it runs); what its shape implies (a body, a query, a `{sid}`, a token)
 * is added here, so no route repeats it. Adding a code to a route is one entry in its `errors` list.
 */
declare module 'fastify' {
  interface FastifyContextConfig {
    /** The codes the route's own work can answer, beyond those its shape implies (src/http/route-errors.ts). */
    errors?: readonly ErrorCode[];
  }
}

/**
 * Answered before a request reaches any route (Node's HTTP parser, the router), so in no route's list:
 * an unparsable request, a bad URL or an over-long path segment, a slow or oversized head, no such route.
 */
export const BEFORE_ROUTING: readonly ErrorCode[] = ['HTTP_MALFORMED', 'URL_MALFORMED', 'BAD_INPUT', 'REQUEST_TIMEOUT', 'HEADERS_TOO_LARGE', 'ROUTE_NOT_FOUND'];

/** Every route: the request guard's host and NUL checks, a defect, a database outage. */
const EVERY_ROUTE: readonly ErrorCode[] = ['NUL_CHARACTER', 'HOST_NOT_ALLOWED', 'INTERNAL_ERROR', 'STORE_UNAVAILABLE'];

/**
 * A method that may change state: the origin and media-type checks, and Fastify reading whatever body it
 * has (the JSON parser's bounds on nesting and on prototype keys included).
 */
const STATE_CHANGING: readonly ErrorCode[] = [
  'ORIGIN_NOT_ALLOWED', 'UNSUPPORTED_MEDIA_TYPE', 'HTTP_MALFORMED', 'BODY_MALFORMED', 'BODY_TOO_LARGE', 'BODY_TOO_DEEP', 'BODY_KEY_REFUSED',
];

/** A route with a body schema: no body at all, or one that fails the schema (or holds NUL). */
const WITH_BODY_SCHEMA: readonly ErrorCode[] = ['BODY_EMPTY', 'INVALID_REQUEST'];

/** A route with a query schema: a query parameter it cannot use. */
const WITH_QUERY_SCHEMA: readonly ErrorCode[] = ['QUERY_INVALID'];

/** A route taking multipart bodies: one without a boundary. */
const MULTIPART: readonly ErrorCode[] = ['MULTIPART_INVALID'];

/** A route under `/sessions/{sid}`: no such session. */
const IN_A_SESSION: readonly ErrorCode[] = ['SESSION_NOT_FOUND'];

/** A route that needs a token (src/auth): none, a bad one, one of too low a scope or of another session. */
const TOKEN_REQUIRED: readonly ErrorCode[] = ['TOKEN_MISSING', 'TOKEN_INVALID', 'TOKEN_SCOPE_INSUFFICIENT', 'TOKEN_SESSION_MISMATCH'];

const READ_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** A route as registered (Fastify's route options) or as a request sees it (`request.routeOptions`). */
export interface DeclaringRoute {
  readonly method: string | readonly string[];
  readonly url?: string | undefined;
  readonly config?: (RouteAuthConfig & { readonly errors?: readonly ErrorCode[] | undefined }) | undefined;
  readonly schema?: (FastifySchema & { readonly consumes?: readonly string[] }) | undefined;
}

/**
 * Every code the route can answer, in registry order: what it declares plus what its shape implies.
 * `prefixes` are the bases routes are served under (public routes there need no token).
 */
export function routeErrorCodes(route: DeclaringRoute, prefixes: readonly string[]): ErrorCode[] {
  const url = route.url ?? '';
  const methods = [route.method].flat().map((m) => m.toUpperCase());
  const codes = new Set<ErrorCode>([...EVERY_ROUTE, ...(route.config?.errors ?? [])]);
  const add = (list: readonly ErrorCode[]) => list.forEach((code) => codes.add(code));
  if (methods.some((m) => !READ_METHODS.has(m))) add(STATE_CHANGING);
  if (route.schema?.body !== undefined) add(WITH_BODY_SCHEMA);
  if (route.schema?.querystring !== undefined) add(WITH_QUERY_SCHEMA);
  if (route.schema?.consumes?.some((type) => type.startsWith('multipart/'))) add(MULTIPART);
  if (/(^|\/):sid(\/|$)/.test(url)) add(IN_A_SESSION);
  const access = routeAccess({ method: methods, url, config: route.config }, prefixes);
  if (access.token === 'required') add(TOKEN_REQUIRED);
  return ERROR_CODES.filter((code) => codes.has(code));
}
