import type { FastifyInstance, FastifySchema, RouteOptions } from 'fastify';
import type { TSchema } from '@sinclair/typebox';
import { ERROR_REGISTRY } from '../../errors.js';
import { routeErrorCodes } from '../route-errors.js';
import { errorResponses } from '../schemas.js';
import { operationIdFor } from './operation-ids.js';

/** The route schema keys the OpenAPI document reads besides Fastify's own. */
interface DocumentedSchema extends FastifySchema {
  operationId?: string;
  hide?: boolean;
  response?: Record<string | number, TSchema>;
}

/** The path of a route relative to the API prefix; undefined for a route outside it (a root alias). */
export function relativePath(url: string, prefix: string): string | undefined {
  if (prefix === '') return url;
  if (url === prefix) return '/';
  return url.startsWith(`${prefix}/`) ? url.slice(prefix.length) : undefined;
}

/**
 * Fills the OpenAPI defaults of every route as it is registered, whichever plugin registers it: an
 * `operationId` (unique), and an error response (`{ detail, code }`) for the status of every code the
 * route can answer (src/http/route-errors.ts), so its statuses and its `x-error-codes` cannot part.
 * Routes outside the prefix are aliases (the root /health) and are hidden, so the document's paths are
 * all relative to its one server (the prefix).
 */
export function installRouteDefaults(app: FastifyInstance, prefix: string): void {
  const taken = new Set<string>();
  const prefixes = [...new Set(['', prefix])];
  app.addHook('onRoute', (route: RouteOptions) => {
    const schema = (route.schema ??= {}) as DocumentedSchema;
    if (schema.hide) return;
    const path = relativePath(route.url, prefix);
    if (path === undefined) {
      schema.hide = true;
      return;
    }
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    // Fastify adds a HEAD route for each GET; the document shows the GET only.
    if (methods.every((m) => m === 'HEAD')) return;
    // A documented route without its declaration would answer codes nobody listed: refuse it at start.
    if (route.config?.errors === undefined) {
      throw new Error(`${methods.join(',')} ${route.url} declares no error codes: give it config.errors (src/http/route-errors.ts)`);
    }
    if (schema.operationId === undefined) {
      const base = operationIdFor(methods[0]!, path);
      let id = base;
      for (let n = 2; taken.has(id); n++) id = `${base}${n}`;
      schema.operationId = id;
    }
    taken.add(schema.operationId);
    const response = (schema.response ??= {});
    // Declaring error responses alone would hide the default success response from the document.
    if (!Object.keys(response).some((status) => /^[23]/.test(status))) response['2xx'] = { description: 'Success' } as unknown as TSchema;
    const statuses = new Set(routeErrorCodes(route, prefixes).map((code) => ERROR_REGISTRY[code].status));
    for (const [status, body] of Object.entries(errorResponses(...statuses))) {
      if (response[status] === undefined && response[`${status[0]}xx`] === undefined) response[status] = body;
    }
  });
}
